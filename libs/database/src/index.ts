export * from './data-source';
export * from './database.module';
export { ALL_MIGRATIONS } from './migrations';
