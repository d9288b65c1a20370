import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { PostgresEventStore } from '../adapters/postgres/postgres-event-store';
import { EventSchemaRegistry } from '../upcasting/event-schema-registry';
import { ExpectedRevision, START, type FeedPosition } from '../event.types';
import type { ReadAllOptions, ReadAllResult } from '../event-store.port';
import { CoalescedFeedReads } from './coalesced-feed-reads';

let db: TestDatabase;
let store: PostgresEventStore;
const TYPES = ['coalesce.a', 'coalesce.b', 'coalesce.c'];
let positions: FeedPosition[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  store = new PostgresEventStore({ pool: new Pool({ connectionString: db.url, max: 10 }), ownsPool: true, connectionString: db.url, registry: new EventSchemaRegistry() });
  // 60 events in 20 streams, the three types interleaved (some streams of one type only).
  for (let s = 0; s < 20; s++) {
    const types = s % 4 === 0 ? [TYPES[2], TYPES[2], TYPES[2]] : [TYPES[s % 3], TYPES[(s + 1) % 3], TYPES[s % 2]];
    await store.appendToStream(`coalesce-${s}-${randomUUID()}`, types.map((type, k) => ({ type, data: { s, k } })), ExpectedRevision.noStream);
  }
  positions = (await readable(60)).map((e) => e.position);
});

/** The feed once `n` events are readable (a transaction open elsewhere in the cluster holds its horizon back for a moment). */
async function readable(n: number) {
  for (;;) {
    const { events } = await store.readAll({ limit: 1000 });
    if (events.length >= n) return events;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
afterAll(async () => {
  await store?.close();
  await db?.drop();
});

/** A reader over the store that counts the reads it makes. */
function counted() {
  let reads = 0;
  const feed = new CoalescedFeedReads((o) => {
    reads += 1;
    return store.readAll(o);
  });
  return { feed, reads: () => reads };
}

/**
 * A result as compared with the same read made alone, later: the same events and end; at the end of
 * the feed `next` is the read's horizon (past every transaction ended by then, in the whole
 * cluster), which only moves on between two reads, so it is compared by kind.
 */
const comparable = (r: ReadAllResult) => ({
  events: r.events.map((e) => e.eventId),
  next: r.endOfFeed && r.next.prepare === BigInt('9223372036854775807') ? 'the horizon' : r.next,
  endOfFeed: r.endOfFeed,
});

describe('CoalescedFeedReads', () => {
  it('serves reads asked for together with one read, each given exactly what it would have read alone', async () => {
    const asked: ReadAllOptions[] = [
      {},
      { after: positions[10] },
      { after: positions[10], eventTypes: [TYPES[0]] },
      { after: positions[3], eventTypes: [TYPES[1], TYPES[2]], limit: 5 },
      { after: positions[59] },
      { after: positions[30], eventTypes: ['coalesce.none'] },
      { after: positions[0], limit: 7 },
      { after: START, eventTypes: [TYPES[2]], limit: 1000 },
    ];
    const { feed, reads } = counted();
    const together = await Promise.all(asked.map((o) => feed.readAll(o)));
    expect(reads()).toBe(1);
    for (const [k, o] of asked.entries()) expect(comparable(together[k])).toEqual(comparable(await store.readAll(o)));
  });

  it('gives a reader past the end of a page that stopped at its limit a read of its own', async () => {
    const asked: ReadAllOptions[] = [
      { after: START, limit: 4 }, // the least advanced: the shared page stops after 4 events
      { after: positions[40], limit: 4 }, // beyond that page
      { after: positions[1], limit: 2 },
    ];
    const { feed, reads } = counted();
    const together = await Promise.all(asked.map((o) => feed.readAll(o)));
    expect(reads()).toBe(2);
    for (const [k, o] of asked.entries()) expect(comparable(together[k])).toEqual(comparable(await store.readAll(o)));
    expect(together[1].events.length).toBe(4);
  });

  it('reads alone when asked alone, and makes reads asked for while one is in flight wait for it and go together', async () => {
    const { feed, reads } = counted();
    const first = feed.readAll({ after: positions[5] });
    await new Promise((resolve) => setImmediate(resolve)); // the first read is now in flight
    const later = [feed.readAll({ after: positions[20] }), feed.readAll({ after: positions[25], eventTypes: [TYPES[1]] })];
    await first;
    const [a, b] = await Promise.all(later);
    expect(reads()).toBe(2);
    expect(comparable(a)).toEqual(comparable(await store.readAll({ after: positions[20] })));
    expect(comparable(b)).toEqual(comparable(await store.readAll({ after: positions[25], eventTypes: [TYPES[1]] })));
  });

  it('fails every reader of a shared read that fails, and reads again afterwards', async () => {
    let fail = true;
    const feed = new CoalescedFeedReads((o) => (fail ? Promise.reject(new Error('connection lost')) : store.readAll(o)));
    const results = await Promise.allSettled([feed.readAll({}), feed.readAll({ after: positions[2] })]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect((await feed.readAll({ after: positions[57] })).events).toHaveLength(2);
  });

  it('keeps live subscriptions of the store exact: each sees every event of its types once, in order', async () => {
    const seen: Record<string, string[]> = { all: [], a: [], bc: [] };
    const subs = [
      store.subscribeToAll({ batchSize: 3, onBatch: async (events) => void seen.all.push(...events.map((e) => e.eventId)) }),
      store.subscribeToAll({ batchSize: 2, eventTypes: [TYPES[0]], onBatch: async (events) => void seen.a.push(...events.map((e) => e.eventId)) }),
      store.subscribeToAll({ after: positions[9], eventTypes: [TYPES[1], TYPES[2]], onBatch: async (events) => void seen.bc.push(...events.map((e) => e.eventId)) }),
    ];
    const more = `coalesce-live-${randomUUID()}`;
    await store.appendToStream(more, TYPES.map((type) => ({ type, data: {} })), ExpectedRevision.noStream);
    const everything = await readable(63);
    const expected = {
      all: everything.map((e) => e.eventId),
      a: everything.filter((e) => e.type === TYPES[0]).map((e) => e.eventId),
      bc: everything.slice(10).filter((e) => e.type !== TYPES[0]).map((e) => e.eventId),
    };
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && JSON.stringify(seen) !== JSON.stringify(expected)) await new Promise((r) => setTimeout(r, 20));
    await Promise.all(subs.map((s) => s.stop()));
    expect(seen).toEqual(expected);
  });
});
