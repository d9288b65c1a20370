import { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { createDataSource } from '@libs/database';
import { EventSchemaRegistry, ExpectedRevision, PostgresEventStore } from '@libs/event-store';
import { checkpoints } from './checkpoint-store';
import { ProjectorRunner } from './projector-runner';
import { CounterDeltas } from './kit/counter-deltas';
import { tableShape } from './kit/upsert';
import type { Projector } from './projector';
import { until } from '../../../test/support/until';

let db: TestDatabase;
let ds: DataSource;
let store: PostgresEventStore;

beforeAll(async () => {
  db = await createTestDatabase();
  ds = createDataSource(db.url, 6);
  await ds.initialize();
  store = new PostgresEventStore({ pool: new Pool({ connectionString: db.url, max: 10 }), ownsPool: true, connectionString: db.url, registry: new EventSchemaRegistry(), pollIntervalMs: 50 });
  await ds.query(`CREATE TABLE group_counts (projector text, type text, n bigint NOT NULL, PRIMARY KEY (projector, type))`);
});
afterAll(async () => {
  await store?.close();
  await ds?.destroy();
  await db?.drop();
});


const counts = tableShape<{ projector: string; type: string; n: number }>({ table: 'group_counts', columns: { projector: 'text', type: 'text', n: 'bigint' }, key: ['projector', 'type'] });

/** Counts the events it handles by type, in the shared table under its own name. */
function counting(name: string, handles: Projector['handles'], fail?: () => boolean): Projector {
  return {
    name,
    handles,
    tables: ['group_counts'],
    async apply(events, context) {
      const deltas = new CounterDeltas(counts, ['n']);
      for (const e of events) deltas.add({ projector: name, type: e.type }, { n: 1 });
      await deltas.flush(context);
      if (fail?.()) throw new Error(`${name} failed`);
    },
  };
}

const tally = async () =>
  Object.fromEntries(((await ds.query(`SELECT projector, type, n::int FROM group_counts ORDER BY 1, 2`)) as { projector: string; type: string; n: number }[]).map((r) => [`${r.projector}/${r.type}`, r.n]));

async function append(n: number, prefix: string) {
  for (let i = 0; i < n; i++) await store.appendToStream(`${prefix}-${i}`, [{ type: 'a.happened', data: {} }, { type: 'b.happened', data: {} }, { type: 'c.happened', data: {} }], ExpectedRevision.any);
}

describe('projector groups', () => {
  it('one feed read and one transaction serve the group; each member keeps its own checkpoint and sees only its types', async () => {
    let failures = 1;
    const group = {
      name: 'toy',
      members: [counting('everything', 'all'), counting('only_a', ['a.happened'], () => failures-- > 0), counting('b_and_c', ['b.happened', 'c.happened'])],
    };
    const errors: unknown[] = [];
    const runner = new ProjectorRunner(ds, store, group, { batchSize: 7, lockRetryMs: 50, onError: (_, e) => errors.push(e) });
    await append(10, 'first');
    runner.start();
    try {
      await until(async () => (await checkpoints.get(ds.manager, 'b_and_c'))?.eventsApplied === 20);
      // The first batch failed in one member: none of the group's writes of that batch stayed, and it was applied once after.
      expect(errors.map((e) => (e as Error).message)).toEqual(['only_a failed']);
      expect(await tally()).toEqual({
        'b_and_c/b.happened': 10, 'b_and_c/c.happened': 10,
        'everything/a.happened': 10, 'everything/b.happened': 10, 'everything/c.happened': 10,
        'only_a/a.happened': 10,
      });
      expect((await checkpoints.get(ds.manager, 'everything'))!.eventsApplied).toBe(30);
      expect((await checkpoints.get(ds.manager, 'only_a'))!.eventsApplied).toBe(10);
      const positions = await Promise.all(group.members.map(async (m) => (await checkpoints.get(ds.manager, m.name))!.position));
      expect(new Set(positions.map((p) => p.commit)).size).toBe(1); // every member advanced to the same place

      // One member starts over (a migration reset it): the group reads again from it; the others are not applied twice.
      await runner.stop();
      await ds.query(`DELETE FROM group_counts WHERE projector = 'only_a'`);
      await ds.query(`DELETE FROM projection_checkpoints WHERE name = 'only_a'`);
      await append(2, 'second');
      const again = new ProjectorRunner(ds, store, group, { batchSize: 7, lockRetryMs: 50 });
      again.start();
      try {
        await until(async () => (await checkpoints.get(ds.manager, 'only_a'))?.eventsApplied === 12 && (await checkpoints.get(ds.manager, 'everything'))?.eventsApplied === 36);
        expect(await tally()).toEqual({
          'b_and_c/b.happened': 12, 'b_and_c/c.happened': 12,
          'everything/a.happened': 12, 'everything/b.happened': 12, 'everything/c.happened': 12,
          'only_a/a.happened': 12,
        });
        expect(again.members.map((m) => m.position!.commit)).toEqual(Array(3).fill(again.position!.commit));
      } finally {
        await again.stop();
      }
    } finally {
      await runner.stop();
    }
  });

  it('holds every member’s lock: a runner of one member waits while the group runs', async () => {
    const group = { name: 'locks', members: [counting('lock_one', ['a.happened']), counting('lock_two', ['b.happened'])] };
    const runner = new ProjectorRunner(ds, store, group, { batchSize: 100, lockRetryMs: 50 });
    const alone = new ProjectorRunner(ds, store, group.members[1], { batchSize: 100, lockRetryMs: 50 });
    runner.start();
    await until(() => runner.state === 'running');
    alone.start();
    await until(() => alone.state === 'waiting-for-lock');
    await runner.stop();
    await until(() => alone.state === 'running');
    await alone.stop();
    expect(() => new ProjectorRunner(ds, store, { name: 'empty', members: [] }, { batchSize: 1, lockRetryMs: 1 })).toThrow('has no member');
  });
});
