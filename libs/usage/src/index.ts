export * from './domain/latency-histogram';
export * from './domain/usage-counters';
export * from './usage.repository';
export * from './record-usage/usage.recorder';
export * from './usage.module';
export * from './usage.config';
export { CreateApiUsage1763700001200 } from './migrations/1763700001200-create-api-usage';
