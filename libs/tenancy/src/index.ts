export * from './tenancy.repository';
export * from './brand-access';
export * from './brand-hosts';
export * from './tenancy.module';
export * from './read-model/tenancy.facts';
export { CreateTenancy1763700001000 } from './migrations/1763700001000-create-tenancy';
export { AddExtraDomains1763700006050 } from './migrations/1763700006050-add-extra-domains';
