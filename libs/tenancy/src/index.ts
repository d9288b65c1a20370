export * from './tenancy.repository';
export * from './brand-access';
export * from './tenancy.module';
export { CreateTenancy1763700001000 } from './migrations/1763700001000-create-tenancy';
