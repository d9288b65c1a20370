export * from './event.types';
export * from './event-store.port';
export * from './event-store.errors';
export * from './upcasting/event-schema-registry';
export * from './subscription/feed-waker';
export { runSubscription } from './subscription/run-subscription';
export * from './adapters/postgres';
export * from './event-store.module';
export * from './event-store.config';
