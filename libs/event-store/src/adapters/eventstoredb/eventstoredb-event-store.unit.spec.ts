import { Readable } from 'node:stream';
import { StreamNotFoundError, WrongExpectedVersionError, type EventStoreDBClient } from '@eventstore/db-client';
import { ExpectedRevision, START, type FeedPosition, type RecordedEvent } from '../../event.types';
import { EventSchemaRegistry, UnknownSchemaVersionError } from '../../upcasting/event-schema-registry';
import { EventStoreUnavailableError, WrongExpectedRevisionError } from '../../event-store.errors';
import { EventStoreDbEventStore } from './eventstoredb-event-store';
import {
  DuplicateEventIdError,
  EventDecodingError,
  decodeMetadata,
  expectationHolds,
  findHeadPosition,
  fromEsdbCurrentRevision,
  isStrictlyAfter,
  isSystemRecord,
  pageAll,
  readStartFor,
  revisionAfterAppend,
  toEsdbExpectedRevision,
  toEventToWrite,
  toRecordedEvent,
  type EsdbReadPosition,
  type ResolvedRecord,
  type StoredRecord,
} from './eventstoredb-mapping';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function record(over: Partial<StoredRecord> & { pos?: bigint } = {}): StoredRecord {
  const { pos, ...rest } = over;
  return {
    streamId: 'order-1',
    id: '3f0d8c2e-0000-4000-8000-000000000001',
    type: 'OrderPlaced',
    revision: 0n,
    created: new Date('2025-01-02T03:04:05Z'),
    data: { total: 10 },
    metadata: { schemaVersion: 1, actor: 'u1' },
    isJson: true,
    position: pos === undefined ? { commit: 100n, prepare: 100n } : { commit: pos, prepare: pos },
    ...rest,
  };
}

describe('EventStoreDB adapter: expected revisions', () => {
  it('maps the port expectations to EventStoreDB values', () => {
    expect(toEsdbExpectedRevision(ExpectedRevision.any)).toBe('any');
    expect(toEsdbExpectedRevision(ExpectedRevision.noStream)).toBe('no_stream');
    expect(toEsdbExpectedRevision(ExpectedRevision.streamExists)).toBe('stream_exists');
    expect(toEsdbExpectedRevision(ExpectedRevision.exact(0))).toBe(0n);
    expect(toEsdbExpectedRevision(ExpectedRevision.exact(41n))).toBe(41n);
    expect(toEsdbExpectedRevision(ExpectedRevision.exact(-1))).toBeNull();
  });

  it("maps EventStoreDB's current revision to the port's (null = absent)", () => {
    expect(fromEsdbCurrentRevision('no_stream')).toBeNull();
    expect(fromEsdbCurrentRevision(7n)).toBe(7n);
    expect(fromEsdbCurrentRevision(-1n)).toBeNull();
    expect(fromEsdbCurrentRevision(3)).toBe(3n);
    expect(fromEsdbCurrentRevision(undefined)).toBeNull();
  });

  it('checks an expectation against a current revision (empty appends)', () => {
    expect(expectationHolds(ExpectedRevision.any, null)).toBe(true);
    expect(expectationHolds(ExpectedRevision.any, 4n)).toBe(true);
    expect(expectationHolds(ExpectedRevision.noStream, null)).toBe(true);
    expect(expectationHolds(ExpectedRevision.noStream, 0n)).toBe(false);
    expect(expectationHolds(ExpectedRevision.streamExists, null)).toBe(false);
    expect(expectationHolds(ExpectedRevision.streamExists, 0n)).toBe(true);
    expect(expectationHolds(ExpectedRevision.exact(2), 2n)).toBe(true);
    expect(expectationHolds(ExpectedRevision.exact(2), 3n)).toBe(false);
    expect(expectationHolds(ExpectedRevision.exact(0), null)).toBe(false);
  });

  it('knows the revision an append must reach when the expectation pins the start', () => {
    expect(revisionAfterAppend(ExpectedRevision.noStream, 3)).toBe(2n);
    expect(revisionAfterAppend(ExpectedRevision.exact(4), 2)).toBe(6n);
    expect(revisionAfterAppend(ExpectedRevision.any, 2)).toBeNull();
    expect(revisionAfterAppend(ExpectedRevision.streamExists, 2)).toBeNull();
  });
});

describe('EventStoreDB adapter: writing', () => {
  const registry = new EventSchemaRegistry().declare('OrderPlaced', 3);

  it('generates a UUID when eventId is omitted and keeps a given one', () => {
    expect(toEventToWrite({ type: 'OrderPlaced', data: {} }, registry).id).toMatch(UUID);
    expect(toEventToWrite({ eventId: 'a5c1a3e4-1111-4111-8111-111111111111', type: 'OrderPlaced', data: {} }, registry).id).toBe(
      'a5c1a3e4-1111-4111-8111-111111111111',
    );
  });

  it("stores schemaVersion in the metadata: the caller's, else the registry's current version", () => {
    const a = toEventToWrite({ type: 'OrderPlaced', data: { x: 1 }, metadata: { actor: 'u1', correlationId: 'c' } }, registry);
    expect(a.metadata).toEqual({ actor: 'u1', correlationId: 'c', schemaVersion: 3 });
    expect(a.data).toEqual({ x: 1 });
    expect(a.type).toBe('OrderPlaced');
    expect(toEventToWrite({ type: 'OrderPlaced', data: {}, metadata: { schemaVersion: 1 } }, registry).metadata.schemaVersion).toBe(1);
    expect(toEventToWrite({ type: 'Unregistered', data: {} }, registry).metadata).toEqual({ schemaVersion: 1 });
  });
});

describe('EventStoreDB adapter: reading and upcasting', () => {
  const registry = new EventSchemaRegistry()
    .register('OrderPlaced', 1, (d) => ({ ...d, currency: 'EUR' }))
    .register('OrderPlaced', 2, (d) => ({ ...d, totalCents: Number(d.total) * 100 }));

  it('maps a stored record to a RecordedEvent, upcast to the current version', () => {
    const e = toRecordedEvent(record({ revision: 5n, position: { commit: 900n, prepare: 880n } }), registry);
    expect(e).toEqual<RecordedEvent>({
      eventId: '3f0d8c2e-0000-4000-8000-000000000001',
      type: 'OrderPlaced',
      data: { total: 10, currency: 'EUR', totalCents: 1000 },
      metadata: { actor: 'u1', schemaVersion: 3 },
      streamId: 'order-1',
      streamPosition: 5n,
      globalPosition: 900n,
      position: { commit: 900n, prepare: 880n },
      recordedAt: new Date('2025-01-02T03:04:05Z'),
    });
  });

  it('does not upcast data already at the current version', () => {
    const e = toRecordedEvent(record({ data: { totalCents: 5 }, metadata: { schemaVersion: 3 } }), registry);
    expect(e.data).toEqual({ totalCents: 5 });
    expect(e.metadata.schemaVersion).toBe(3);
  });

  it('treats missing metadata / schemaVersion as version 1, and decodes raw bytes', () => {
    expect(decodeMetadata(undefined, 'm')).toEqual({ metadata: {}, schemaVersion: 1 });
    expect(decodeMetadata(new Uint8Array(), 'm')).toEqual({ metadata: {}, schemaVersion: 1 });
    expect(decodeMetadata({ actor: 'x' }, 'm')).toEqual({ metadata: { actor: 'x' }, schemaVersion: 1 });
    expect(decodeMetadata({ schemaVersion: 0 }, 'm').schemaVersion).toBe(1);
    expect(decodeMetadata(Buffer.from('{"schemaVersion":2}'), 'm')).toEqual({ metadata: { schemaVersion: 2 }, schemaVersion: 2 });
    const e = toRecordedEvent(record({ metadata: undefined, data: Buffer.from('{"total":1}'), isJson: false }), registry);
    expect(e.data).toEqual({ total: 1, currency: 'EUR', totalCents: 100 });
  });

  it('rejects data that is not a JSON object', () => {
    expect(() => toRecordedEvent(record({ data: Buffer.from([0xff, 0x00]), isJson: false }), registry)).toThrow(EventDecodingError);
    expect(() => toRecordedEvent(record({ data: [1, 2] }), registry)).toThrow(/not a JSON object/);
    expect(() => toRecordedEvent(record({ data: 'not json {' }), registry)).toThrow(/not valid JSON/);
  });

  it('rejects versions newer than the registry knows', () => {
    expect(() => toRecordedEvent(record({ metadata: { schemaVersion: 9 } }), registry)).toThrow(UnknownSchemaVersionError);
  });

  it('falls back to the read commit position when the record has none (servers before 22.6)', () => {
    const e = toRecordedEvent(record({ position: undefined }), registry, 77n);
    expect(e.position).toEqual({ commit: 77n, prepare: 77n });
    expect(e.globalPosition).toBe(77n);
  });

  it('recognises system events and system streams', () => {
    expect(isSystemRecord({ streamId: '$stats-127.0.0.1:2113', type: '$statsCollected' })).toBe(true);
    expect(isSystemRecord({ streamId: 'order-1', type: '$>' })).toBe(true);
    expect(isSystemRecord({ streamId: '$$order-1', type: '$metadata' })).toBe(true);
    expect(isSystemRecord({ streamId: '$ce-order', type: 'OrderPlaced' })).toBe(true);
    expect(isSystemRecord({ streamId: 'order-1', type: 'OrderPlaced' })).toBe(false);
  });
});

describe('EventStoreDB adapter: positions', () => {
  it('reads from the start for START and from the position itself otherwise (inclusive)', () => {
    expect(readStartFor(START)).toBe('start');
    expect(readStartFor({ commit: 10n, prepare: 9n })).toEqual({ commit: 10n, prepare: 9n });
  });

  it('skips the event at exactly `after`', () => {
    const after: FeedPosition = { commit: 10n, prepare: 10n };
    expect(isStrictlyAfter({ commit: 10n, prepare: 10n }, after)).toBe(false);
    expect(isStrictlyAfter({ commit: 10n, prepare: 11n }, after)).toBe(true);
    expect(isStrictlyAfter({ commit: 11n, prepare: 0n }, after)).toBe(true);
    expect(isStrictlyAfter({ commit: 9n, prepare: 99n }, after)).toBe(false);
  });
});

/** An in-memory `$all` with EventStoreDB's read semantics (forward: inclusive start; backward: before `from`). */
class FakeLog {
  readonly entries: ResolvedRecord[] = [];
  readonly calls: { from: EsdbReadPosition; maxCount: number }[] = [];
  private next = 100n;

  add(streamId: string, type: string, n = 1): this {
    for (let i = 0; i < n; i += 1) {
      const pos = this.next;
      this.next += 37n;
      this.entries.push({ event: record({ streamId, type, id: `id-${pos}`, pos, revision: BigInt(i) }), commitPosition: pos });
    }
    return this;
  }

  position(i: number): FeedPosition {
    const p = this.entries[i].event?.position;
    if (!p) throw new Error('no position');
    return p;
  }

  readonly forward = async (from: EsdbReadPosition, maxCount: number): Promise<ResolvedRecord[]> => {
    this.calls.push({ from, maxCount });
    const start =
      from === 'start' ? 0 : from === 'end' ? this.entries.length : this.entries.findIndex((e) => (e.event?.position?.commit ?? 0n) >= from.commit);
    return this.entries.slice(start < 0 ? this.entries.length : start, (start < 0 ? this.entries.length : start) + maxCount);
  };

  readonly backward = async (from: EsdbReadPosition, maxCount: number): Promise<ResolvedRecord[]> => {
    const before = from === 'end' ? this.entries.length : from === 'start' ? 0 : this.entries.findIndex((e) => (e.event?.position?.commit ?? 0n) >= from.commit);
    const end = before < 0 ? this.entries.length : before;
    return this.entries.slice(Math.max(0, end - maxCount), end).reverse();
  };
}

describe('EventStoreDB adapter: paging over $all', () => {
  const registry = new EventSchemaRegistry();
  const map = (r: StoredRecord, cp?: bigint) => toRecordedEvent(r, registry, cp);

  it('returns events strictly after `after`, without system events, and advances past everything examined', async () => {
    const log = new FakeLog().add('$stats-x', '$statsCollected').add('a', 'A', 3).add('$$a', '$metadata').add('b', 'B', 2).add('$stats-x', '$statsCollected', 2);
    const all = await pageAll(log.forward, map, { limit: 100 });
    expect(all.events.map((e) => e.streamId)).toEqual(['a', 'a', 'a', 'b', 'b']);
    expect(all.endOfFeed).toBe(true);
    expect(all.next).toEqual(log.position(log.entries.length - 1)); // past the trailing system events

    const after = all.events[1].position;
    const rest = await pageAll(log.forward, map, { after, limit: 100 });
    expect(rest.events.map((e) => e.eventId)).toEqual(all.events.slice(2).map((e) => e.eventId));
    // EventStoreDB's read started at `after` itself (inclusive) ...
    expect(log.calls[log.calls.length - 1].from).toEqual(after);
    // ... and the event at `after` was skipped.
    expect(rest.events[0].position).not.toEqual(after);
  });

  it('fills a page across reads and reports endOfFeed only when the feed ran out', async () => {
    const log = new FakeLog();
    for (let i = 0; i < 10; i += 1) log.add(`s${i}`, 'E').add('$stats-x', '$statsCollected', 3);
    const first = await pageAll(log.forward, map, { limit: 4, chunkSize: 3 });
    expect(first.events.map((e) => e.streamId)).toEqual(['s0', 's1', 's2', 's3']);
    expect(first.endOfFeed).toBe(false);
    expect(first.next).toEqual(first.events[3].position);

    const pages: string[][] = [first.events.map((e) => e.streamId)];
    let page = first;
    while (!page.endOfFeed) {
      page = await pageAll(log.forward, map, { after: page.next, limit: 4, chunkSize: 3 });
      pages.push(page.events.map((e) => e.streamId));
    }
    expect(pages.flat()).toEqual(['s0', 's1', 's2', 's3', 's4', 's5', 's6', 's7', 's8', 's9']);
    expect(page.next).toEqual(log.position(log.entries.length - 1));
  });

  it('filters by event type but still moves `next` past the others', async () => {
    const log = new FakeLog().add('a', 'A').add('b', 'B').add('a', 'A').add('c', 'C');
    const page = await pageAll(log.forward, map, { eventTypes: ['A'], limit: 10 });
    expect(page.events.map((e) => e.type)).toEqual(['A', 'A']);
    expect(page.next).toEqual(log.position(3));
    expect(page.endOfFeed).toBe(true);
  });

  it('returns an empty end-of-feed page at the end, keeping `after`', async () => {
    const log = new FakeLog().add('a', 'A');
    const page = await pageAll(log.forward, map, { after: log.position(0) });
    expect(page).toEqual({ events: [], next: log.position(0), endOfFeed: true });
    expect(await pageAll(new FakeLog().forward, map)).toEqual({ events: [], next: START, endOfFeed: true });
  });

  it('bounds the work of one call on a long run of system events', async () => {
    const log = new FakeLog().add('$stats-x', '$statsCollected', 50).add('a', 'A');
    const page = await pageAll(log.forward, map, { limit: 10, chunkSize: 5, maxExamined: 20 });
    expect(page.events).toEqual([]);
    expect(page.endOfFeed).toBe(false);
    // Reads of 5 from an inclusive start examine 5, then 4 new per read: 21 examined at the stop.
    expect(page.next).toEqual(log.position(20));
    let rest = page;
    const seen: string[] = [];
    do {
      rest = await pageAll(log.forward, map, { after: rest.next, limit: 10, chunkSize: 5, maxExamined: 20 });
      seen.push(...rest.events.map((e) => e.streamId));
    } while (!rest.endOfFeed);
    expect(seen).toEqual(['a']);
  });

  it('rejects a non-positive limit', async () => {
    await expect(pageAll(new FakeLog().forward, map, { limit: 0 })).rejects.toThrow(RangeError);
  });

  it('finds the head: the newest non-system event, START when there is none', async () => {
    const log = new FakeLog().add('a', 'A', 2).add('$stats-x', '$statsCollected', 7);
    expect(await findHeadPosition(log.backward, { chunkSize: 3 })).toEqual(log.position(1));
    expect(await findHeadPosition(new FakeLog().add('$stats-x', '$statsCollected', 5).backward, { chunkSize: 2 })).toEqual(START);
    expect(await findHeadPosition(new FakeLog().backward)).toEqual(START);
  });

  it('gives up the head search after maxExamined and returns the newest position seen', async () => {
    const log = new FakeLog().add('a', 'A').add('$stats-x', '$statsCollected', 30);
    expect(await findHeadPosition(log.backward, { chunkSize: 4, maxExamined: 8 })).toEqual(log.position(30));
  });
});

describe('EventStoreDB adapter: without a server', () => {
  it('ping fails with EventStoreUnavailableError when nothing listens (127.0.0.1, closed port)', async () => {
    const store = new EventStoreDbEventStore({
      connectionString: 'esdb://127.0.0.1:1?tls=false',
      registry: new EventSchemaRegistry(),
      pingTimeoutMs: 3000,
    });
    try {
      await expect(store.ping()).rejects.toBeInstanceOf(EventStoreUnavailableError);
    } finally {
      await store.close();
    }
  });
});

/** A stand-in for the EventStoreDB client: one stream kept in memory, appends scripted per test. */
function fakeClient(script: { append: (events: { id: string; type: string; data: unknown; metadata: unknown }[], expectedRevision: unknown) => unknown }) {
  const stream: StoredRecord[] = [];
  const appended: { ids: string[]; expectedRevision: unknown; metadata: unknown[] }[] = [];
  const readable = (items: unknown[], error?: Error) =>
    new Readable({
      objectMode: true,
      read() {
        if (error) this.destroy(error);
        else {
          for (const item of items) this.push(item);
          this.push(null);
        }
      },
    });
  const client = {
    appendToStream: async (
      _name: string,
      events: { id: string; type: string; data: unknown; metadata: unknown }[],
      options: { expectedRevision: unknown },
    ) => {
      appended.push({ ids: events.map((e) => e.id), expectedRevision: options.expectedRevision, metadata: events.map((e) => e.metadata) });
      return script.append(events, options.expectedRevision);
    },
    readStream: (name: string, options: { fromRevision: bigint | 'start' | 'end'; maxCount?: number; direction: string }) => {
      if (stream.length === 0) return readable([], new StreamNotFoundError(undefined, name));
      let items = options.direction === 'backwards' ? [...stream].reverse() : stream;
      if (typeof options.fromRevision === 'bigint') {
        const from = options.fromRevision;
        items = items.filter((r) => (options.direction === 'backwards' ? r.revision <= from : r.revision >= from));
      }
      return readable(items.slice(0, options.maxCount ?? items.length).map((event) => ({ event, commitPosition: event.position?.commit })));
    },
    readAll: () => readable([]),
    dispose: async () => undefined,
  };
  return { client: client as unknown as EventStoreDBClient, stream, appended };
}

describe('EventStoreDB adapter: appendToStream (fake client)', () => {
  const registry = new EventSchemaRegistry().declare('OrderPlaced', 2);

  it('sends JSON events with generated ids and schemaVersion metadata, and maps the expectation', async () => {
    const fake = fakeClient({ append: () => ({ success: true, nextExpectedRevision: 0n, position: { commit: 500n, prepare: 500n } }) });
    const store = new EventStoreDbEventStore({ connectionString: 'unused', registry, client: fake.client });
    const result = await store.appendToStream('order-1', [{ type: 'OrderPlaced', data: { a: 1 }, metadata: { actor: 'u' } }], ExpectedRevision.noStream);
    expect(result).toEqual({ nextExpectedRevision: 0n, position: { commit: 500n, prepare: 500n } });
    expect(fake.appended[0].expectedRevision).toBe('no_stream');
    expect(fake.appended[0].ids[0]).toMatch(UUID);
    expect(fake.appended[0].metadata[0]).toEqual({ actor: 'u', schemaVersion: 2 });
  });

  it('turns WrongExpectedVersionError into WrongExpectedRevisionError with the actual revision', async () => {
    const fake = fakeClient({
      append: () => {
        throw new WrongExpectedVersionError(undefined, { streamName: 'order-1', expected: 3n, current: 5n });
      },
    });
    const store = new EventStoreDbEventStore({ connectionString: 'unused', registry, client: fake.client });
    const error: unknown = await store.appendToStream('order-1', [{ type: 'OrderPlaced', data: {} }], ExpectedRevision.exact(3)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WrongExpectedRevisionError);
    expect(error).toMatchObject({ streamId: 'order-1', expected: ExpectedRevision.exact(3), actual: 5n });

    const absent = fakeClient({
      append: () => {
        throw new WrongExpectedVersionError(undefined, { streamName: 'order-1', expected: 'stream_exists', current: 'no_stream' });
      },
    });
    const store2 = new EventStoreDbEventStore({ connectionString: 'unused', registry, client: absent.client });
    await expect(store2.appendToStream('order-1', [{ type: 'OrderPlaced', data: {} }], ExpectedRevision.streamExists)).rejects.toMatchObject({
      name: 'WrongExpectedRevisionError',
      actual: null,
    });
  });

  it('rejects an idempotent replay (success without a position) instead of reporting it as written', async () => {
    const fake = fakeClient({ append: () => ({ success: true, nextExpectedRevision: 0n, position: undefined }) });
    fake.stream.push(record({ revision: 0n }));
    const store = new EventStoreDbEventStore({ connectionString: 'unused', registry, client: fake.client });
    await expect(store.appendToStream('order-1', [{ type: 'OrderPlaced', data: {} }], ExpectedRevision.noStream)).rejects.toMatchObject({
      name: 'WrongExpectedRevisionError',
      actual: 0n,
    });
    await expect(store.appendToStream('order-1', [{ type: 'OrderPlaced', data: {} }], ExpectedRevision.any)).rejects.toBeInstanceOf(
      DuplicateEventIdError,
    );
  });

  it('reads back the last event of a multi-event append for its position', async () => {
    const fake = fakeClient({ append: () => ({ success: true, nextExpectedRevision: 1n, position: { commit: 200n, prepare: 100n } }) });
    fake.stream.push(record({ revision: 0n, pos: 100n }), record({ revision: 1n, pos: 200n, position: { commit: 200n, prepare: 150n } }));
    const store = new EventStoreDbEventStore({ connectionString: 'unused', registry, client: fake.client });
    const result = await store.appendToStream(
      'order-1',
      [
        { type: 'OrderPlaced', data: {} },
        { type: 'OrderPlaced', data: {} },
      ],
      ExpectedRevision.noStream,
    );
    expect(result).toEqual({ nextExpectedRevision: 1n, position: { commit: 200n, prepare: 150n } });
  });

  it('an empty append checks the expectation, writes nothing and returns the current revision', async () => {
    const fake = fakeClient({ append: () => Promise.reject(new Error('must not be called')) });
    const store = new EventStoreDbEventStore({ connectionString: 'unused', registry, client: fake.client });
    await expect(store.appendToStream('order-1', [], ExpectedRevision.noStream)).resolves.toEqual({ nextExpectedRevision: -1n, position: START });
    await expect(store.appendToStream('order-1', [], ExpectedRevision.streamExists)).rejects.toMatchObject({ actual: null });
    fake.stream.push(record({ revision: 0n }), record({ revision: 1n }));
    await expect(store.appendToStream('order-1', [], ExpectedRevision.exact(1))).resolves.toMatchObject({ nextExpectedRevision: 1n });
    await expect(store.appendToStream('order-1', [], ExpectedRevision.exact(0))).rejects.toMatchObject({ actual: 1n });
    await expect(store.appendToStream('order-1', [], ExpectedRevision.exact(-1))).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect(fake.appended).toEqual([]);
  });

  it('reads a missing stream as empty, with a null revision', async () => {
    const fake = fakeClient({ append: () => undefined });
    const store = new EventStoreDbEventStore({ connectionString: 'unused', registry, client: fake.client });
    await expect(store.readStream('nope')).resolves.toEqual([]);
    await expect(store.streamRevision('nope')).resolves.toBeNull();
    fake.stream.push(record({ revision: 0n, metadata: { schemaVersion: 2 } }), record({ revision: 1n, metadata: { schemaVersion: 2 } }));
    await expect(store.streamRevision('order-1')).resolves.toBe(1n);
    expect((await store.readStream('order-1', { fromRevision: 1n })).map((e) => e.streamPosition)).toEqual([1n]);
    expect((await store.readStream('order-1', { maxCount: 1 })).map((e) => e.streamPosition)).toEqual([0n]);
  });
});
