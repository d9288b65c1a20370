export * from './redis.module';
export * from './redis-subscriber';
export * from './redis-connection';
