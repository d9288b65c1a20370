import { describeEventStoreContract } from '../../testing';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

/**
 * The shared contract suite against a real EventStoreDB (EVENTSTORE_URL, e.g.
 * esdb://localhost:2113?tls=false). Streams cannot be dropped cheaply and `$all` keeps everything
 * ever written: the suite names its streams with a fresh prefix per test and its feed assertions
 * only look at those streams, so a shared, non-empty server is fine and nothing is cleaned up.
 */
const url = process.env.EVENTSTORE_URL?.trim();

if (url) {
  describeEventStoreContract('EventStoreDB', async (registry) => {
    const store = new EventStoreDbEventStore({ connectionString: url, registry });
    await store.ping(); // fail fast, with a clear error, when the server is not there
    return { store, cleanup: () => store.close() };
  });
} else {
  console.warn('EventStoreDB contract suite SKIPPED: set EVENTSTORE_URL=esdb://localhost:2113?tls=false to run it');
  describe('EventStoreDB event store contract', () => {
    it.skip('EventStoreDB contract suite (needs EVENTSTORE_URL)', () => undefined);
  });
}
