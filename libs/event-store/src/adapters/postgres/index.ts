export { PostgresEventStore, type PostgresEventStoreOptions } from './postgres-event-store';
export { CreateEventStore1763700000000 } from './migrations/1763700000000-create-event-store';
