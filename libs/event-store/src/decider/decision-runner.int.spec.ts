import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import type { Decider } from '@libs/event-sourcing';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { PostgresEventStore } from '../adapters/postgres/postgres-event-store';
import { EventSchemaRegistry } from '../upcasting/event-schema-registry';
import { WrongExpectedRevisionError } from '../event-store.errors';
import type { EventStore } from '../event-store.port';
import { ExpectedRevision, START, type EventMetadata, type RecordedEvent } from '../event.types';
import { appendNewStreams, DecisionRunner } from './decision-runner';

// A toy stream: a counter with a ceiling, to exercise the runner alone.
type Event = { type: 'counter.added'; data: { amount: number } };
type Command = { add: number };
type State = { total: number };
class OverCeiling extends Error {}
class KeptChanging extends Error {}

const CEILING = 1000;
const counter: Decider<State, Command, Event> = {
  initialState: { total: 0 },
  evolve: (state, event) => ({ total: state.total + event.data.amount }),
  decide(command, state) {
    if (command.add === 0) return []; // nothing to add: nothing to record
    if (state.total + command.add > CEILING) throw new OverCeiling(`over ${CEILING}`);
    return [{ type: 'counter.added', data: { amount: command.add } }];
  },
};

const meta: EventMetadata = { organizationId: 1, actor: 'test', correlationId: 'c-1', causationId: null };

let db: TestDatabase;
let store: PostgresEventStore;
beforeAll(async () => {
  db = await createTestDatabase();
  const pool = new Pool({ connectionString: db.url, max: 20 });
  store = new PostgresEventStore({ pool, ownsPool: true, connectionString: db.url, registry: new EventSchemaRegistry(), pollIntervalMs: 200 });
});
afterAll(async () => {
  await store?.close();
  await db?.drop();
});

/** The store, counting the streams it reads. */
function counted(target: EventStore): { store: EventStore; reads: () => number } {
  let reads = 0;
  const proxy = new Proxy(target, {
    get(t, key, receiver) {
      const value = Reflect.get(t, key, receiver);
      if (key === 'readStream') return (...args: Parameters<EventStore['readStream']>) => (reads++, t.readStream(...args));
      return typeof value === 'function' ? value.bind(t) : value;
    },
  });
  return { store: proxy, reads: () => reads };
}

const runner = (maxAttempts?: number, on: EventStore = store) =>
  new DecisionRunner(on, {
    decider: counter,
    decode: (e: RecordedEvent) => ({ type: 'counter.added', data: { amount: Number(e.data.amount) } }),
    isRefusal: (error) => error instanceof OverCeiling,
    conflict: (streamId) => new KeptChanging(streamId),
    maxAttempts,
  });

describe('DecisionRunner', () => {
  it('loads, decides, appends at the revision it decided on and returns the state after', async () => {
    const stream = `counter-${randomUUID()}`;
    const r = runner();
    expect(await r.load(stream)).toEqual({ state: { total: 0 }, revision: -1, source: 'stream' });
    const first = await r.run(stream, () => ({ add: 2 }), meta);
    expect(first).toMatchObject({ state: { total: 2 }, revision: 0, events: [{ type: 'counter.added', data: { amount: 2 } }] });
    await r.run(stream, () => ({ add: 3 }), meta);
    expect(await r.load(stream)).toEqual({ state: { total: 5 }, revision: 1, source: 'stream' });
    const recorded = (await r.history(stream)).recorded;
    expect(recorded.map((e) => e.metadata.actor)).toEqual(['test', 'test']);
  });

  it('concurrent commands on one stream are each decided on the state the others left: none lost, none twice', async () => {
    const stream = `counter-${randomUUID()}`;
    const r = runner();
    await Promise.all(Array.from({ length: 12 }, () => r.run(stream, () => ({ add: 1 }), meta)));
    const { recorded } = await r.history(stream);
    expect(recorded).toHaveLength(12);
    expect(recorded.map((e) => Number(e.streamPosition))).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect((await r.load(stream)).state).toEqual({ total: 12 });
  });

  it('a refusal on the latest state is the domain’s answer; concurrency cannot push past it', async () => {
    const stream = `counter-${randomUUID()}`;
    const r = runner();
    await r.run(stream, () => ({ add: CEILING - 5 }), meta);
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => r.run(stream, () => ({ add: 1 }), meta)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
    expect(outcomes.filter((o) => o.status === 'rejected').every((o) => (o as PromiseRejectedResult).reason instanceof OverCeiling)).toBe(true);
    expect((await r.load(stream)).state).toEqual({ total: CEILING });
  });

  it('decides first on a given (projected) state; when it is behind, the append fails and the stream decides', async () => {
    const stream = `counter-${randomUUID()}`;
    const r = runner();
    await r.run(stream, () => ({ add: 1 }), meta);
    const stale = { state: { total: 1 }, revision: 0, source: 'projection' as const };
    await r.run(stream, () => ({ add: 1 }), meta); // the stream moves on; the "row" does not
    const seen: number[] = [];
    const result = await r.run(stream, (state) => (seen.push(state.total), { add: 10 }), meta, stale);
    expect(seen).toEqual([1, 2]); // decided on the row, then on the stream
    expect(result).toMatchObject({ state: { total: 12 }, revision: 2 });
  });

  it('a refusal on a projected state is checked again on the stream before it is reported', async () => {
    const stream = `counter-${randomUUID()}`;
    const r = runner();
    await r.run(stream, () => ({ add: 5 }), meta);
    const wrongRow = { state: { total: CEILING }, revision: 0, source: 'projection' as const };
    const result = await r.run(stream, () => ({ add: 10 }), meta, wrongRow);
    expect(result.state).toEqual({ total: 15 });
    const streamRow = { state: { total: CEILING }, revision: 0, source: 'stream' as const };
    await expect(r.run(stream, () => ({ add: 10 }), meta, streamRow)).rejects.toBeInstanceOf(OverCeiling);
  });

  it('a decision of no events appends nothing; said on a projected state, it is checked on the stream', async () => {
    const stream = `counter-${randomUUID()}`;
    const r = runner();
    const first = await r.run(stream, () => ({ add: 5 }), meta);
    const nothing = await r.run(stream, () => ({ add: 0 }), meta, first.loaded);
    expect(nothing).toEqual({ state: { total: 5 }, revision: 0, position: START, events: [], loaded: { state: { total: 5 }, revision: 0, source: 'stream' } });
    expect((await r.history(stream)).recorded).toHaveLength(1);
    const seen: number[] = [];
    const staleRow = { state: { total: 1 }, revision: -1, source: 'projection' as const };
    const checked = await r.run(stream, (state) => (seen.push(state.total), { add: 0 }), meta, staleRow);
    expect(seen).toEqual([1, 5]);
    expect(checked).toMatchObject({ state: { total: 5 }, revision: 0, events: [] });
  });

  it('a caller chains commands on the state its last decision left (`loaded`) without reading the stream again', async () => {
    const stream = `counter-${randomUUID()}`;
    const { store: reading, reads } = counted(store);
    const r = runner(undefined, reading);
    const first = await r.run(stream, () => ({ add: 1 }), meta, r.newStream());
    const second = await r.run(stream, () => ({ add: 2 }), meta, first.loaded);
    await r.run(stream, () => ({ add: 3 }), meta, second.loaded);
    expect(reads()).toBe(0);
    expect(await runner().load(stream)).toEqual({ state: { total: 6 }, revision: 2, source: 'stream' });
  });

  it('runAll decides its commands in order, each on the state the previous left, and appends them in one transaction (or nothing)', async () => {
    const stream = `counter-${randomUUID()}`;
    const r = runner();
    const seen: number[] = [];
    const result = await r.runAll(stream, (state) => (seen.push(state.total), [{ add: 2 }, { add: 0 }, { add: 3 }]), meta, r.newStream());
    expect(result).toMatchObject({ state: { total: 5 }, revision: 1, events: [{ data: { amount: 2 } }, { data: { amount: 3 } }] });
    const events = await store.readStream(stream);
    expect(events.map((e) => e.position.commit)).toEqual([events[0].position.commit, events[0].position.commit]);
    // The last command over the ceiling refuses the whole chain: nothing is appended.
    await expect(r.runAll(stream, () => [{ add: 1 }, { add: CEILING }], meta, result.loaded)).rejects.toBeInstanceOf(OverCeiling);
    // Another appends first: the chain is decided again on the newer state.
    await r.run(stream, () => ({ add: 10 }), meta);
    expect(await r.runAll(stream, (state) => (seen.push(state.total), [{ add: 1 }, { add: 1 }]), meta, result.loaded)).toMatchObject({ state: { total: 17 }, revision: 4 });
    expect(seen).toEqual([0, 5, 15]);
  });

  it('newStream: a stream that exists after all fails the append, and the command is decided on its fold', async () => {
    const stream = `counter-${randomUUID()}`;
    const r = runner();
    await r.run(stream, () => ({ add: CEILING }), meta);
    await expect(r.run(stream, () => ({ add: 1 }), meta, r.newStream())).rejects.toBeInstanceOf(OverCeiling);
    const again = `counter-${randomUUID()}`;
    await r.run(again, () => ({ add: 4 }), meta);
    expect(await r.run(again, () => ({ add: 1 }), meta, r.newStream())).toMatchObject({ state: { total: 5 }, revision: 1 });
  });

  it('decideNew decides a new stream without I/O; appendNewStreams writes many in one bulk append, or stream by stream', async () => {
    const { store: reading, reads } = counted(store);
    const r = runner(undefined, reading);
    const streams = Array.from({ length: 3 }, () => `counter-${randomUUID()}`);
    const decided = streams.map((id, k) => r.decideNew(id, [{ add: 1 }, { add: 0 }, { add: k + 1 }], meta));
    expect(decided[1]).toEqual({
      streamId: streams[1],
      events: [
        { type: 'counter.added', data: { amount: 1 }, metadata: meta },
        { type: 'counter.added', data: { amount: 2 }, metadata: meta },
      ],
      state: { total: 3 },
    });
    expect(() => r.decideNew('counter-x', [{ add: CEILING }, { add: 1 }], meta)).toThrow(OverCeiling);
    await appendNewStreams(store, decided);
    expect(reads()).toBe(0);
    for (const [k, id] of streams.entries()) expect(await r.load(id)).toMatchObject({ state: { total: 2 + k }, revision: 1 });

    // Without the bulk path: one "no stream" append each.
    const single = new Proxy(store, { get: (t, key, receiver) => (key === 'appendToNewStreams' ? undefined : ((v) => (typeof v === 'function' ? v.bind(t) : v))(Reflect.get(t, key, receiver))) });
    const lone = `counter-${randomUUID()}`;
    await appendNewStreams(single, [r.decideNew(lone, [{ add: 7 }], meta)]);
    expect((await r.load(lone)).state).toEqual({ total: 7 });

    // Every stream must be new: one that exists fails the batch, which writes nothing.
    const fresh = `counter-${randomUUID()}`;
    await expect(appendNewStreams(store, [r.decideNew(fresh, [{ add: 1 }], meta), r.decideNew(lone, [{ add: 1 }], meta)])).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect(await r.load(fresh)).toEqual({ state: { total: 0 }, revision: -1, source: 'stream' });
  });

  it('gives up with the module’s conflict error when the stream changes under every attempt', async () => {
    const stream = `counter-${randomUUID()}`;
    // Someone else always appends between this runner's load and its append.
    const contested = new Proxy(store, {
      get(target, key, receiver) {
        if (key !== 'appendToStream') {
          const value = Reflect.get(target, key, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        }
        return async (...args: Parameters<PostgresEventStore['appendToStream']>) => {
          await target.appendToStream(args[0], [{ type: 'counter.added', data: { amount: 1 }, metadata: meta }], ExpectedRevision.any);
          return target.appendToStream(...args);
        };
      },
    });
    let decisions = 0;
    const r = new DecisionRunner(contested, {
      decider: counter,
      decode: (e) => ({ type: 'counter.added', data: { amount: Number(e.data.amount) } }),
      isRefusal: () => false,
      conflict: (s) => new KeptChanging(s),
      maxAttempts: 3,
    });
    await expect(r.run(stream, () => (decisions++, { add: 1 }), meta)).rejects.toBeInstanceOf(KeptChanging);
    expect(decisions).toBe(3);
    expect((await r.load(stream)).state).toEqual({ total: 3 }); // only the interferer's events
  });
});
