import { randomUUID } from 'node:crypto';
import type { EventStore } from '../event-store.port';
import { WrongExpectedRevisionError } from '../event-store.errors';
import { ExpectedRevision, comparePositions, type FeedPosition, type RecordedEvent } from '../event.types';
import { EventSchemaRegistry } from '../upcasting/event-schema-registry';

export interface ContractFixture {
  store: EventStore;
  cleanup: () => Promise<void>;
}

/**
 * Reads the feed after `from` (following pages), keeping only events of streams starting with
 * `prefix`, until `expected` events arrived or 10 s passed. The feed is complete but not
 * necessarily at once: a store may hold back events while older transactions are in flight.
 */
export async function readFeed(store: EventStore, from: FeedPosition, prefix: string, expected: number): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  const deadline = Date.now() + 10_000;
  let after = from;
  for (;;) {
    const page = await store.readAll({ after, limit: 500 });
    out.push(...page.events.filter((e) => e.streamId.startsWith(prefix)));
    after = page.next;
    if (page.endOfFeed && (out.length >= expected || Date.now() > deadline)) return out;
    if (page.endOfFeed) await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The behaviour every event store adapter must have. Each adapter's spec calls this with a
 * factory that opens the store with the given schema registry. Streams are named with a fresh
 * prefix, and feed assertions only look at those streams, so a shared server is fine.
 */
export function describeEventStoreContract(name: string, factory: (registry: EventSchemaRegistry) => Promise<ContractFixture>): void {
  describe(`${name} event store contract`, () => {
    let fixture: ContractFixture;
    let store: EventStore;
    let registry: EventSchemaRegistry;
    let prefix: string;
    const stream = (s: string) => `${prefix}-${s}`;
    const ev = (type: string, data: Record<string, unknown> = {}) => ({ type, data, metadata: { organizationId: 1, actor: 'test' } });

    beforeAll(async () => {
      registry = new EventSchemaRegistry();
      registry.register('contract.renamed', 1, (d) => ({ fullName: `${d.first} ${d.last}` }));
      fixture = await factory(registry);
      store = fixture.store;
    });
    afterAll(async () => {
      await fixture?.cleanup();
    });
    beforeEach(() => {
      prefix = `c${randomUUID().slice(0, 8)}`;
    });

    it('appends to a new stream and reads it back in order with data and metadata', async () => {
      const r = await store.appendToStream(stream('a'), [ev('x.one', { n: 1 }), ev('x.two', { n: 2 }), ev('x.three', { n: 3 })], ExpectedRevision.noStream);
      expect(r.nextExpectedRevision).toBe(2n);
      const events = await store.readStream(stream('a'));
      expect(events.map((e) => [e.type, e.data.n, e.streamPosition])).toEqual([
        ['x.one', 1, 0n],
        ['x.two', 2, 1n],
        ['x.three', 3, 2n],
      ]);
      expect(events[0].metadata).toMatchObject({ organizationId: 1, actor: 'test', schemaVersion: 1 });
      expect(events[0].eventId).toMatch(/^[0-9a-f-]{36}$/);
      expect(events[0].recordedAt).toBeInstanceOf(Date);
      expect(await store.streamRevision(stream('a'))).toBe(2n);
      expect(await store.readStream(stream('a'), { fromRevision: 1n, maxCount: 1 })).toHaveLength(1);
    });

    it('reads an absent stream as empty with no revision', async () => {
      expect(await store.readStream(stream('missing'))).toEqual([]);
      expect(await store.streamRevision(stream('missing'))).toBeNull();
    });

    it('enforces every expected-revision rule with a typed conflict error', async () => {
      const s = stream('rules');
      await expect(store.appendToStream(s, [ev('x')], ExpectedRevision.streamExists)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      await expect(store.appendToStream(s, [ev('x')], ExpectedRevision.exact(0))).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      await store.appendToStream(s, [ev('x')], ExpectedRevision.noStream);
      const conflict = await store.appendToStream(s, [ev('x')], ExpectedRevision.noStream).catch((e: unknown) => e);
      expect(conflict).toBeInstanceOf(WrongExpectedRevisionError);
      expect((conflict as WrongExpectedRevisionError).actual).toBe(0n);
      expect((conflict as WrongExpectedRevisionError).streamId).toBe(s);
      await expect(store.appendToStream(s, [ev('x')], ExpectedRevision.exact(5))).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      expect((await store.appendToStream(s, [ev('x')], ExpectedRevision.exact(0))).nextExpectedRevision).toBe(1n);
      expect((await store.appendToStream(s, [ev('x')], ExpectedRevision.streamExists)).nextExpectedRevision).toBe(2n);
      expect((await store.appendToStream(s, [ev('x')], ExpectedRevision.any)).nextExpectedRevision).toBe(3n);
      expect((await store.appendToStream(stream('any-new'), [ev('x')], ExpectedRevision.any)).nextExpectedRevision).toBe(0n);
      expect(await store.readStream(s)).toHaveLength(4);
    });

    it('lets exactly one of many appends with the same expected revision win', async () => {
      const s = stream('race');
      await store.appendToStream(s, [ev('x')], ExpectedRevision.noStream);
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) => store.appendToStream(s, [ev('x.race', { i }), ev('x.race2', { i })], ExpectedRevision.exact(0))),
      );
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(11);
      for (const l of lost) expect(l.reason).toBeInstanceOf(WrongExpectedRevisionError);
      const events = await store.readStream(s);
      expect(events).toHaveLength(3);
      expect(events[1].data.i).toBe(events[2].data.i); // both events of the winner, together
    });

    it('lets exactly one of many creations of the same stream win', async () => {
      const s = stream('create-race');
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => store.appendToStream(s, [ev('x')], ExpectedRevision.noStream)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(await store.readStream(s)).toHaveLength(1);
    });

    it('makes a multi-event append visible all at once or not at all', async () => {
      const s = stream('atomic');
      const batch = Array.from({ length: 300 }, (_, i) => ev('x.bulk', { i }));
      const seen = new Set<number>();
      let appending = true;
      const watcher = (async () => {
        while (appending) seen.add((await store.readStream(s)).length);
      })();
      await store.appendToStream(s, batch, ExpectedRevision.noStream);
      appending = false;
      await watcher;
      seen.add((await store.readStream(s)).length);
      expect([...seen].every((n) => n === 0 || n === 300)).toBe(true);
      const failed = await store.appendToStream(s, batch, ExpectedRevision.noStream).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(WrongExpectedRevisionError);
      expect(await store.readStream(s)).toHaveLength(300);
    });

    it("keeps each stream's order in the global feed, every event exactly once", async () => {
      const before = await store.headPosition();
      const streams = Array.from({ length: 8 }, (_, i) => stream(`feed-${i}`));
      await Promise.all(
        streams.map(async (s) => {
          for (let k = 0; k < 10; k++) await store.appendToStream(s, [ev('x.feed', { k })], k === 0 ? ExpectedRevision.noStream : ExpectedRevision.exact(k - 1));
        }),
      );
      const feed = await readFeed(store, before, prefix, 80);
      expect(feed).toHaveLength(80);
      expect(new Set(feed.map((e) => e.eventId)).size).toBe(80);
      for (const s of streams) {
        expect(feed.filter((e) => e.streamId === s).map((e) => Number(e.streamPosition))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      }
      for (let i = 1; i < feed.length; i++) expect(comparePositions(feed[i - 1].position, feed[i].position)).toBeLessThan(0);
      expect(comparePositions(await store.headPosition(), feed[feed.length - 1].position)).toBeGreaterThanOrEqual(0);
      expect(comparePositions(await store.newestPosition(), feed[feed.length - 1].position)).toBeGreaterThanOrEqual(0);
    });

    it('filters the feed by event type and still moves past the others', async () => {
      const before = await store.headPosition();
      await store.appendToStream(stream('f'), [ev('x.keep'), ev('x.drop'), ev('x.keep')], ExpectedRevision.noStream);
      let after = before;
      const kept: RecordedEvent[] = [];
      const deadline = Date.now() + 10_000;
      for (;;) {
        const page = await store.readAll({ after, limit: 100, eventTypes: ['x.keep'] });
        kept.push(...page.events.filter((e) => e.streamId.startsWith(prefix)));
        expect(comparePositions(page.next, after)).toBeGreaterThanOrEqual(0);
        after = page.next;
        if (page.endOfFeed && (kept.length >= 2 || Date.now() > deadline)) break;
        if (page.endOfFeed) await new Promise((r) => setTimeout(r, 20));
      }
      expect(kept.map((e) => e.type)).toEqual(['x.keep', 'x.keep']);
    });

    it('upcasts an event written with an old schema version on every read', async () => {
      const s = stream('old');
      const before = await store.headPosition();
      await store.appendToStream(s, [{ type: 'contract.renamed', data: { first: 'Ada', last: 'Lovelace' }, metadata: { schemaVersion: 1 } }], ExpectedRevision.noStream);
      await store.appendToStream(s, [{ type: 'contract.renamed', data: { fullName: 'Grace Hopper' } }], ExpectedRevision.exact(0));
      const read = await store.readStream(s);
      expect(read.map((e) => [e.data, e.metadata.schemaVersion])).toEqual([
        [{ fullName: 'Ada Lovelace' }, 2],
        [{ fullName: 'Grace Hopper' }, 2],
      ]);
      const feed = await readFeed(store, before, prefix, 2);
      expect(feed.map((e) => e.data)).toEqual([{ fullName: 'Ada Lovelace' }, { fullName: 'Grace Hopper' }]);
    });

    it('catches up and then follows live, in order, without duplicates', async () => {
      const before = await store.headPosition();
      const s = stream('live');
      await store.appendToStream(s, Array.from({ length: 5 }, (_, k) => ev('x.live', { k })), ExpectedRevision.noStream);
      const received: number[] = [];
      let caughtUp = false;
      const sub = store.subscribeToAll({
        after: before,
        batchSize: 2,
        onBatch: async (events) => {
          for (const e of events) if (e.streamId === s) received.push(e.data.k as number);
        },
        onCaughtUp: () => (caughtUp = true),
      });
      const deadline = Date.now() + 10_000;
      while (!caughtUp && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(caughtUp).toBe(true);
      for (let k = 5; k < 10; k++) await store.appendToStream(s, [ev('x.live', { k })], ExpectedRevision.any);
      while (received.length < 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      await sub.stop();
      expect(received).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    });

    it('answers ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}
