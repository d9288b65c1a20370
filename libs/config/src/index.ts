export * from './config-section';
export * from './app-config';
export * from './config.module';
