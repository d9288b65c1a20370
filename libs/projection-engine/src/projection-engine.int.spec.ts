import { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { createDataSource } from '@libs/database';
import { comparePositions, EventSchemaRegistry, ExpectedRevision, PostgresEventStore } from '@libs/event-store';
import { eventTypeCountsProjector } from '@projections';
import { ProjectorRunner } from './projector-runner';
import { ProjectionRebuilder } from './projection-rebuilder';
import { checkpoints } from './checkpoint-store';
import { projectionStatus } from './projection-status';
import { until } from '../../../test/support/until';

let db: TestDatabase;
let ds: DataSource;
let store: PostgresEventStore;

beforeAll(async () => {
  db = await createTestDatabase();
  ds = createDataSource(db.url, 10);
  await ds.initialize();
  store = new PostgresEventStore({ pool: new Pool({ connectionString: db.url, max: 20 }), ownsPool: true, connectionString: db.url, registry: new EventSchemaRegistry(), pollIntervalMs: 50 });
});
afterAll(async () => {
  await store?.close();
  await ds?.destroy();
  await db?.drop();
});

async function appendMany(n: number, streams = 20, types = ['a.created', 'b.changed', 'c.closed']) {
  await Promise.all(
    Array.from({ length: streams }, async (_, s) => {
      for (let i = s; i < n; i += streams) {
        await store.appendToStream(`s-${s}`, [{ type: types[i % types.length], data: { i } }], ExpectedRevision.any);
      }
    }),
  );
}

async function table(name: string): Promise<{ type: string; count: string }[]> {
  return ds.query(`SELECT type, count FROM ${name} ORDER BY type`);
}

async function eventCountsFromStore(): Promise<{ type: string; count: string }[]> {
  return ds.query(`SELECT type, count(*)::text AS count FROM events GROUP BY type ORDER BY type`);
}


const runner = () => new ProjectorRunner(ds, store, eventTypeCountsProjector, { batchSize: 100, lockRetryMs: 100 });

describe('projection engine', () => {
  it('applies every event once, advancing the checkpoint with each batch', async () => {
    await appendMany(600);
    const r = runner();
    r.start();
    await until(async () => JSON.stringify(await table('event_type_counts')) === JSON.stringify(await eventCountsFromStore()));
    await appendMany(300);
    await until(async () => JSON.stringify(await table('event_type_counts')) === JSON.stringify(await eventCountsFromStore()));
    const cp = await checkpoints.get(ds.manager, 'event_type_counts');
    expect(cp!.eventsApplied).toBe(900);
    const [status] = await projectionStatus(ds, store, [eventTypeCountsProjector]);
    expect(status).toMatchObject({ name: 'event_type_counts', eventsApplied: 900, lag: 0, owner: r.owner });
    await r.stop();
  });

  it('moves the checkpoint past events it does not handle, also when nothing comes after them', async () => {
    const seen: string[] = [];
    const onlyA = { name: 'only_a_created', handles: ['a.created'], tables: [], apply: async (events: readonly { type: string }[]) => void seen.push(...events.map((e) => e.type)) };
    const r = new ProjectorRunner(ds, store, onlyA, { batchSize: 100, lockRetryMs: 100 });
    r.start();
    await store.appendToStream('filtered-1', [{ type: 'a.created', data: {} }], ExpectedRevision.any);
    await until(() => seen.includes('a.created'), 10_000, 'the handled event');
    // Right after a delivery, an event it does not handle, and then nothing: the checkpoint must still pass it.
    const last = await store.appendToStream('filtered-1', [{ type: 'b.changed', data: {} }], ExpectedRevision.any);
    await until(async () => {
      const cp = await checkpoints.get(ds.manager, 'only_a_created');
      return cp !== null && comparePositions(cp.position, last.position) >= 0;
    }, 10_000, 'the checkpoint to pass the filtered event');
    expect(seen).toContain('a.created');
    expect(seen).not.toContain('b.changed');
    await r.stop();
  });

  it('runs a projector in one runner only; another takes over when it stops', async () => {
    const first = runner();
    const second = runner();
    first.start();
    await until(async () => first.state === 'running');
    second.start();
    await until(async () => second.state === 'waiting-for-lock');
    await appendMany(90);
    await until(async () => JSON.stringify(await table('event_type_counts')) === JSON.stringify(await eventCountsFromStore()));
    await first.stop();
    await until(async () => second.state === 'running');
    await appendMany(60);
    await until(async () => JSON.stringify(await table('event_type_counts')) === JSON.stringify(await eventCountsFromStore()));
    expect((await checkpoints.get(ds.manager, 'event_type_counts'))!.eventsApplied).toBe(
      Number((await ds.query('SELECT count(*) AS n FROM events'))[0].n),
    );
    await second.stop();
  });

  it('stops when asked while it is subscribing, before a subscription exists to stop', async () => {
    await appendMany(30);
    let r: ProjectorRunner | null = null;
    let stopped: Promise<void> | null = null;
    // The stop comes at the moment the runner subscribes: after its checkpoints are read, before it holds the subscription.
    const racing = Object.create(store) as PostgresEventStore;
    racing.subscribeToAll = (options) => {
      stopped ??= r!.stop();
      return store.subscribeToAll(options);
    };
    r = new ProjectorRunner(ds, racing, eventTypeCountsProjector, { batchSize: 100, lockRetryMs: 100 });
    r.start();
    await until(() => stopped !== null);
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([stopped!.then(() => 'stopped'), new Promise((resolve) => (timer = setTimeout(() => resolve('still running after 5 s'), 5000)))]);
    clearTimeout(timer);
    expect(outcome).toBe('stopped');
    expect(r.state).toBe('stopped');
  });

  it('rebuilds from zero into fresh tables while the live runner keeps going, and equals the live result row for row', async () => {
    const live = runner();
    live.start();
    await until(async () => live.state === 'running');
    const indexesBefore = await ds.query(`SELECT indexname FROM pg_indexes WHERE tablename = 'event_type_counts' ORDER BY 1`);
    let writing = true;
    const writer = (async () => {
      while (writing) await appendMany(40, 4);
    })();
    const progress: number[] = [];
    const result = await new ProjectionRebuilder(ds, store, 250).rebuild(eventTypeCountsProjector, (p) => progress.push(p.applied));
    writing = false;
    await writer;
    expect(result.eventsRead).toBeGreaterThan(1000);
    expect(progress.length).toBeGreaterThan(2);
    await until(async () => JSON.stringify(await table('event_type_counts')) === JSON.stringify(await eventCountsFromStore()));
    expect(await ds.query(`SELECT indexname FROM pg_indexes WHERE tablename = 'event_type_counts' ORDER BY 1`)).toEqual(indexesBefore);
    expect(await ds.query(`SELECT to_regclass('event_type_counts__rebuild') AS t`)).toEqual([{ t: null }]);
    const cp = await checkpoints.get(ds.manager, 'event_type_counts');
    expect(cp!.rebuiltAt).not.toBeNull();
    // Events appended after the swap are applied once by the live runner.
    await appendMany(30);
    await until(async () => JSON.stringify(await table('event_type_counts')) === JSON.stringify(await eventCountsFromStore()));
    await live.stop();
  });

  it("refreshes the planner's statistics of the feed before replaying it (a page is then read by the feed's index, whatever loaded the events)", async () => {
    await appendMany(50, 4);
    const analysedAt = async () => (await ds.query(`SELECT last_analyze FROM pg_stat_user_tables WHERE relname = 'events'`))[0].last_analyze as Date | null;
    const before = await analysedAt();
    await new ProjectionRebuilder(ds, store, 250).rebuild(eventTypeCountsProjector);
    const after = await analysedAt();
    expect(after).not.toBeNull();
    expect(before === null || after!.getTime() > before.getTime()).toBe(true);
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM pg_stats WHERE tablename = 'events' AND attname = 'type'`);
    expect(n).toBe(1);
  });
});
