export * from './local-services.config';
export * from './local-services';
export { EmbeddedPostgres, postgresBinaries } from './embedded-postgres';
export { LocalRedis, noRedis } from './local-redis';
export { SharedServer } from './shared-server';
export { freePort } from './process-tools';
