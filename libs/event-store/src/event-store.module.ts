import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { APP_CONFIG, sectionOf, type AppConfig } from '@libs/config';
import { EVENT_STORE_CONFIG } from './event-store.config';
import { EVENT_STORE, type EventStore } from './event-store.port';
import { EventSchemaRegistry } from './upcasting/event-schema-registry';
import { PostgresEventStore } from './adapters/postgres';

/**
 * Builds the configured adapter (EVENT_STORE=postgres | eventstoredb). The EventStoreDB client
 * (gRPC) is loaded only when it is selected.
 */
export async function createEventStore(config: AppConfig, registry: EventSchemaRegistry): Promise<EventStore> {
  const { eventStore, eventStoreUrl, subscriptionPollMs } = sectionOf(config, EVENT_STORE_CONFIG);
  if (eventStore === 'eventstoredb') {
    const { EventStoreDbEventStore } = await import('./adapters/eventstoredb');
    return new EventStoreDbEventStore({ connectionString: eventStoreUrl!, registry });
  }
  // The store runs short index-ordered statements: JIT compilation only adds latency to them.
  const pool = new Pool({ connectionString: config.databaseUrl, max: config.databasePoolSize, options: '-c jit=off' });
  return new PostgresEventStore({
    pool,
    ownsPool: true,
    connectionString: config.databaseUrl,
    registry,
    pollIntervalMs: subscriptionPollMs,
  });
}

class EventStoreCloser implements OnApplicationShutdown {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}
  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

/** Provides EVENT_STORE and the shared EventSchemaRegistry (modules register their upcasters on it). */
@Global()
@Module({
  providers: [
    { provide: EventSchemaRegistry, useFactory: () => new EventSchemaRegistry() },
    { provide: EVENT_STORE, inject: [APP_CONFIG, EventSchemaRegistry], useFactory: createEventStore },
    EventStoreCloser,
  ],
  exports: [EVENT_STORE, EventSchemaRegistry],
})
export class EventStoreModule {}
