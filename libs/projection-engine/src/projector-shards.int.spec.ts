import { Client, Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { ADMIN_URL, createTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { createDataSource } from '@libs/database';
import { EventSchemaRegistry, ExpectedRevision, PostgresEventStore } from '@libs/event-store';
import { checkpoints, prepareShardCheckpoints, projectionsReached, ShardCountChangedError } from './checkpoint-store';
import { ShardCoordinator } from './shard-coordinator';
import { ProjectionRebuilder } from './projection-rebuilder';
import { shardOwnership } from './projection-status';
import { checkpointNames, shardOf } from './shards';
import type { Projector } from './projector';
import { until } from '../../../test/support/until';

let db: TestDatabase;
let ds: DataSource;
let store: PostgresEventStore;

const REBALANCE_MS = 200;
const SHARDS = 4;

/** A worker: its own connections (application_name tagged, so a test can cut them) and its coordinator. */
interface Worker {
  name: string;
  ds: DataSource;
  store: PostgresEventStore;
  coordinator: ShardCoordinator;
}

const withName = (url: string, name: string) => {
  const u = new URL(url);
  u.searchParams.set('application_name', name);
  return u.toString();
};

/** Records each event it applies once per projector: a second application of an event fails the test (n = 2). */
function seeing(name: string): Projector {
  return {
    name,
    handles: ['thing.happened'],
    tables: ['seen'],
    async apply(events, context) {
      await context.query(
        `INSERT INTO ${context.table('seen')} AS s (projector, event_id, organization_id, n) SELECT $1, e, o, 1 FROM unnest($2::text[], $3::int[]) AS u(e, o)
         ON CONFLICT (projector, event_id) DO UPDATE SET n = s.n + 1`,
        [name, events.map((e) => e.eventId), events.map((e) => Number(e.metadata.organizationId))],
      );
    },
  };
}

const GROUPS = [
  { name: 'first', members: [seeing('seen_a')] },
  { name: 'second', members: [seeing('seen_b'), seeing('seen_c')] },
];

async function startWorker(name: string): Promise<Worker> {
  const url = withName(db.url, name);
  const wds = createDataSource(url, 12);
  await wds.initialize();
  const wstore = new PostgresEventStore({ pool: new Pool({ connectionString: url, max: 12 }), ownsPool: true, connectionString: url, registry: new EventSchemaRegistry(), pollIntervalMs: 50 });
  const coordinator = new ShardCoordinator(wds, wstore, GROUPS, { shards: SHARDS, rebalanceMs: REBALANCE_MS, batchSize: 50, lockRetryMs: 100, owner: name });
  coordinator.start();
  return { name, ds: wds, store: wstore, coordinator };
}

/**
 * A worker that dies: its connections are cut (as when its process is killed), nothing is released
 * cleanly. Its pools are ended first, so that (unlike a dead process) it cannot open a new
 * connection between the cut and the end and take its locks again; then its backends are
 * terminated until none is left.
 */
async function kill(w: Worker): Promise<void> {
  void w.ds.destroy().catch(() => undefined);
  void w.store.close().catch(() => undefined);
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    const deadline = Date.now() + 10_000;
    while ((await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, [w.name])).rowCount && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await admin.end();
  }
}

let appended = 0;
async function append(streams: number, perStream: number, orgs = 12) {
  await Promise.all(
    Array.from({ length: streams }, async (_, s) => {
      const org = (appended + s) % orgs + 1;
      for (let i = 0; i < perStream; i++) {
        await store.appendToStream(`thing-${appended + s}`, [{ type: 'thing.happened', data: { i }, metadata: { organizationId: org } }], ExpectedRevision.any);
      }
    }),
  );
  appended += streams;
}

const owners = async () => (await shardOwnership(ds)).filter((u) => u.live).map((u) => `${u.group}#${u.shard}:${u.owner}`);

beforeAll(async () => {
  db = await createTestDatabase();
  ds = createDataSource(db.url, 4);
  await ds.initialize();
  store = new PostgresEventStore({ pool: new Pool({ connectionString: db.url, max: 8 }), ownsPool: true, connectionString: db.url, registry: new EventSchemaRegistry(), pollIntervalMs: 50 });
  await ds.query(`CREATE TABLE seen (projector text, event_id text, organization_id int NOT NULL, n int NOT NULL, PRIMARY KEY (projector, event_id))`);
});
afterAll(async () => {
  await store?.close();
  await ds?.destroy();
  await db?.drop();
});

describe('projections in shards', () => {
  it('shards by a stable hash of the organisation; checkpoints are the plain name with one shard', () => {
    expect(shardOf(7, 1)).toBe(0);
    expect(shardOf(null, 4)).toBe(0);
    expect(shardOf(7, 4)).toBe(shardOf('7', 4));
    const spread = new Set(Array.from({ length: 40 }, (_, i) => shardOf(i + 1, 4)));
    expect(spread.size).toBe(4);
    expect(checkpointNames('opportunities', 1)).toEqual(['opportunities']);
    expect(checkpointNames('opportunities', 3)).toEqual(['opportunities#0/3', 'opportunities#1/3', 'opportunities#2/3']);
  });

  it('two workers share the units; one killed hands its units over within the bound; every event projected exactly once', async () => {
    await append(40, 5);
    const a = await startWorker('worker-a');
    let b: Worker | null = null;
    try {
      // Alone, the first worker takes every unit (2 groups × 4 shards).
      await until(async () => (await owners()).filter((o) => o.endsWith(':worker-a')).length === 8, 20_000, 'worker-a holding the 8 units');
      b = await startWorker('worker-b');
      await append(40, 5);
      // The second takes its share: four each.
      await until(async () => {
        const o = await owners();
        return o.length === 8 && o.filter((x) => x.endsWith(':worker-b')).length === 4 && o.filter((x) => x.endsWith(':worker-a')).length === 4;
      }, 20_000, 'four units each');
      const heldByA = (await shardOwnership(ds)).filter((u) => u.owner === 'worker-a').map((u) => `${u.group}#${u.shard}`);
      expect(heldByA).toHaveLength(4);
      await append(40, 5);

      // Killed mid-run, with events still coming: its units go to the other within the bound.
      const appending = append(40, 5);
      const killedAt = Date.now();
      await kill(a);
      await until(async () => (await owners()).filter((o) => o.endsWith(':worker-b')).length === 8, 20_000, 'worker-b holding the 8 units');
      const handover = Date.now() - killedAt;
      expect(handover).toBeLessThan(REBALANCE_MS * 2 + 2000);
      const rows = await shardOwnership(ds);
      for (const unit of heldByA) {
        const row = rows.find((u) => `${u.group}#${u.shard}` === unit)!;
        expect(row).toMatchObject({ owner: 'worker-b', live: true });
        expect(Date.parse(row.since!)).toBeGreaterThanOrEqual(killedAt - 1000);
      }
      await appending;

      // Every event, once per projector, in every shard.
      const head = await store.newestPosition();
      await until(() => projectionsReached(ds, ['seen_a', 'seen_b', 'seen_c'], head), 30_000, 'every shard caught up');
      const counts: { projector: string; events: number; max: number }[] = await ds.query(`SELECT projector, count(*)::int AS events, max(n) AS max FROM seen GROUP BY 1 ORDER BY 1`);
      expect(counts).toEqual(['seen_a', 'seen_b', 'seen_c'].map((projector) => ({ projector, events: 800, max: 1 })));
      // Each shard's checkpoint counted only its organisations' events.
      const applied = await Promise.all(checkpointNames('seen_a', SHARDS).map(async (n) => (await checkpoints.get(ds.manager, n))!.eventsApplied));
      expect(applied.reduce((x, y) => x + y, 0)).toBe(800);
      const perShard: { shard: number; n: number }[] = await ds.query(`SELECT organization_id AS o, count(*)::int AS n FROM seen WHERE projector = 'seen_a' GROUP BY 1`).then((r: { o: number; n: number }[]) => {
        const by = new Map<number, number>();
        for (const { o, n } of r) by.set(shardOf(o, SHARDS), (by.get(shardOf(o, SHARDS)) ?? 0) + n);
        return [...by].map(([shard, n]) => ({ shard, n }));
      });
      for (const { shard, n } of perShard) expect(applied[shard]).toBe(n);
    } finally {
      await b?.coordinator.stop();
      await b?.ds.destroy();
      await b?.store.close();
      await a.coordinator.stop().catch(() => undefined);
    }
    // A clean stop leaves no owner behind.
    expect((await shardOwnership(ds)).filter((u) => u.owner === 'worker-b')).toEqual([]);
  }, 120_000);

  it('splits a single-shard checkpoint into shards at its position; another count needs a rebuild, which resets every shard', async () => {
    await ds.query(`INSERT INTO projection_checkpoints (name, commit_position, prepare_position) VALUES ('split_me', 42, 41)`);
    await prepareShardCheckpoints(ds.manager, 'split_me', 3);
    const rows: { name: string; commit_position: string }[] = await ds.query(`SELECT name, commit_position FROM projection_checkpoints WHERE name LIKE 'split!_me%' ESCAPE '!' ORDER BY name`);
    expect(rows).toEqual(checkpointNames('split_me', 3).map((name) => ({ name, commit_position: '42' })));
    await expect(prepareShardCheckpoints(ds.manager, 'split_me', 2)).rejects.toThrow(ShardCountChangedError);
    await expect(prepareShardCheckpoints(ds.manager, 'split_me', 1)).rejects.toThrow(ShardCountChangedError);

    // A rebuild under 2 shards resets both and removes the 3-shard ones.
    const projector: Projector = { ...seeing('split_me'), tables: ['seen'] };
    await ds.query(`DELETE FROM seen WHERE projector = 'split_me'`);
    await new ProjectionRebuilder(ds, store, 500, 2).rebuild(projector);
    const after: { name: string; events_applied: string }[] = await ds.query(`SELECT name, events_applied FROM projection_checkpoints WHERE name LIKE 'split!_me%' ESCAPE '!' ORDER BY name`);
    expect(after.map((r) => r.name)).toEqual(checkpointNames('split_me', 2));
    expect(after.reduce((n, r) => n + Number(r.events_applied), 0)).toBe(800);
    await prepareShardCheckpoints(ds.manager, 'split_me', 2);
  }, 60_000);
});
