export * from './logging.module';
export * from './http-metrics';
export * from './observability.module';
export * from './operations.controller';
export * from './startup-checks';
export * from './run-main';
