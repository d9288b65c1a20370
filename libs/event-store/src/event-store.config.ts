import { defineConfigSection, type ConfigOf } from '@libs/config';

/** Which event store (PostgreSQL, in the service's database, or EventStoreDB) and where. */
export const EVENT_STORE_CONFIG = defineConfigSection(
  'event-store',
  [
    { name: 'EVENT_STORE', default: 'postgres', description: '`postgres` or `eventstoredb`' },
    { name: 'EVENTSTORE_URL', default: '(none)', description: 'EventStoreDB connection string (esdb://…), required when EVENT_STORE=eventstoredb' },
    // The name predates the sections (the feed's subscribers are the projectors); kept so deployments keep working.
    { name: 'PROJECTION_POLL_MS', default: '500', description: 'Poll interval of feed subscriptions when no notification arrives' },
  ],
  (r) => {
    const eventStore = r.oneOf('EVENT_STORE', ['postgres', 'eventstoredb'] as const);
    const eventStoreUrl = r.optional('EVENTSTORE_URL');
    if (eventStoreUrl !== null) r.url('EVENTSTORE_URL', ['esdb:', 'esdb+discover:']);
    else if (eventStore === 'eventstoredb') r.problem('EVENTSTORE_URL', 'required when EVENT_STORE=eventstoredb (e.g. esdb://127.0.0.1:2113?tls=false)');
    /** How often a feed subscription polls when no notification arrives. */
    const subscriptionPollMs = r.int('PROJECTION_POLL_MS', 10, 600_000);
    return { eventStore, eventStoreUrl, subscriptionPollMs };
  },
);
export type EventStoreConfig = ConfigOf<typeof EVENT_STORE_CONFIG>;
