import { Pool } from 'pg';
import { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { createTestDatabase, testRedisPrefix, type TestDatabase } from '../../test/support/test-database';
import { until } from '../../test/support/until';
import { createDataSource } from '@libs/database';
import { loadConfig, sectionOf } from '@libs/config';
import { comparePositions, EventSchemaRegistry, ExpectedRevision, PostgresEventStore, START, type FeedPosition } from '@libs/event-store';
import { checkpointNames, eventShard, PROJECTION_CONFIG, ProjectionRebuilder, projectionsReached, quoteIdent, ShardCoordinator, shardOf } from '@libs/projection-engine';
import { QUEUE_CONFIG, Queues } from '@libs/queue';
import { PROVIDERS } from '@libs/analysis';
import { ANSWER_DAILY_ROLLUPS } from '@libs/visibility';
import { answerRollupsProjector, rollupsBulkRebuild } from './answer-rollups.projector';
import { BrandRollupRebuildProcessor, BrandRollupRebuilds } from './brand-rollups-rebuild';

/**
 * The rollups' fast rebuild (bulk: COPY into staging, sums in SQL) against the live projector on the
 * same events, and the per-brand rebuild through `{rollup-rebuilds}` against a full rebuild.
 */
let db: TestDatabase;
let ds: DataSource;
let store: PostgresEventStore;
const SHARDS = 2;
const orgs: number[] = [];
/** Brands (the first of a client): their organisation and id. */
const brands: { org: number; id: number }[] = [];

/** A deterministic sequence in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const rnd = random(42);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
const share = () => Math.round(rnd() * 1000) / 997;

let runId = 1000;
/** An analysis of answer (run, n) of a brand: its entities' labels drawn at random, a market on some, no prompt on some. */
function analysed(brand: { org: number; id: number }, key: { runId: number; n: number; day: string; provider: string; promptId: number | null; market: boolean }, variant = 0) {
  const competitors = [1, 2, 3].map((c) => `c-${brand.id}-${c}`);
  const entities = [`b-${brand.id}`, ...competitors]
    .filter((_, i) => !(variant === 2 && i === 3)) // a re-analysis may no longer see an entity (its cell stays, at zero)
    .map((entityId, i) => {
      const mentioned = rnd() < 0.7;
      const sentiment = mentioned ? pick(['positive', 'neutral', 'negative', null] as const) : null;
      return {
        entityId,
        kind: i === 0 ? 'brand' : 'competitor',
        name: entityId,
        mentioned,
        mentions: mentioned ? 1 + Math.floor(rnd() * 3) : 0,
        rank: mentioned && rnd() < 0.8 ? 1 + Math.floor(rnd() * 5) : null,
        sentiment,
        sentimentScore: sentiment ? Math.round((rnd() * 2 - 1) * 1000) / 1000 : null,
        visibilityShare: mentioned ? share() : 0,
        ...(variant > 0 && mentioned && { labeller: 'judge:test/model' }),
      };
    });
  const citations = Array.from({ length: Math.floor(rnd() * 3) }, (_, k) => {
    const owner = pick([`b-${brand.id}`, ...competitors, null]);
    return { url: `https://x${k}.example/`, domain: `x${k}.example`, title: null, position: k + 1, owner: owner === null ? 'other' : owner.startsWith('b-') ? 'brand' : 'competitor', entityId: owner };
  });
  const claims = rnd() < 0.2 ? [{ fact: 'foundedYear', claimed: '1999', expected: '1999', agrees: rnd() < 0.5, sentence: 'Founded in 1999.' }] : undefined;
  return {
    type: 'answer.analysed',
    data: {
      runId: key.runId,
      n: key.n,
      organizationId: brand.org,
      brandId: brand.id,
      promptId: key.promptId,
      query: key.promptId === null ? `audit question of ${brand.id}` : `question ${key.promptId}`,
      provider: key.provider,
      ...(key.market && { country: 'DE', language: 'de' }),
      askedAt: `${key.day}T06:00:0${key.n % 10}.000Z`,
      engineVersion: 'test-1',
      analysedAt: `${key.day}T06:00:10.000Z`,
      entities,
      citations,
      ...(claims && { claims }),
      ...(variant > 0 && { judge: { labeller: 'judge:test/model', outcome: rnd() < 0.3 ? 'fallback' : 'labelled' } }),
    },
    metadata: { organizationId: brand.org },
  };
}

type Key = Parameters<typeof analysed>[1];
const answered: { brand: (typeof brands)[number]; key: Key }[] = [];

/** A run's answers for a brand on a day (each appended to its own stream, as the service does). */
async function runFor(brand: (typeof brands)[number], day: string): Promise<void> {
  const run = runId++;
  let n = 0;
  for (const provider of PROVIDERS.slice(0, 2)) {
    for (const promptId of [1, 2, null]) {
      const key = { runId: run, n: n++, day, provider, promptId, market: rnd() < 0.3 };
      answered.push({ brand, key });
      await store.appendToStream(`answer-${key.runId}-${key.n}`, [analysed(brand, key)], ExpectedRevision.any);
    }
  }
}

/** Re-analyses (a judge's labels, sometimes an entity gone): appended to the answers' streams later. */
async function reanalyse(count: number, of: readonly (typeof brands)[number][] = brands): Promise<void> {
  const candidates = answered.filter((a) => of.includes(a.brand));
  for (let i = 0; i < count; i++) {
    const { brand, key } = pick(candidates);
    await store.appendToStream(`answer-${key.runId}-${key.n}`, [analysed(brand, key, i % 3 === 0 ? 2 : 1)], ExpectedRevision.any);
  }
}

/**
 * Waits until every appended event is readable: the feed stops below the oldest transaction still
 * open on the server (any database's, on a shared machine), so an append can stay unread a while.
 */
async function settled(): Promise<FeedPosition> {
  const newest = await store.newestPosition();
  await until(async () => comparePositions(await store.headPosition(), newest) >= 0, 120_000, 'the feed readable up to the last append');
  return newest;
}

const FLOAT_COLUMNS = Object.entries(ANSWER_DAILY_ROLLUPS.columns).filter(([, t]) => t === 'float8').map(([c]) => c);

/** The rollup rows (float sums rounded to 9 places: they may differ in the last bits with the order of addition) and the sources. */
async function snapshot(where = 'TRUE'): Promise<{ rollups: unknown[]; sources: unknown[] }> {
  const rollups = await ds.query(`SELECT * FROM answer_daily_rollups WHERE ${where} ORDER BY ${ANSWER_DAILY_ROLLUPS.key.join(', ')}`);
  for (const r of rollups) for (const c of FLOAT_COLUMNS) r[c] = Math.round(r[c] * 1e9) / 1e9 + 0; // + 0: a residue of -1e-17 and an exact 0 are the same figure
  const sources = await ds.query(`SELECT result_id, contribution FROM answer_rollup_sources ORDER BY result_id`);
  return { rollups, sources };
}

/** A brand's whole counters per provider cell (the provider rollups' grain), summed from `table`. */
function providerSums(table: string, brandId: number): Promise<unknown[]> {
  const whole = Object.entries(ANSWER_DAILY_ROLLUPS.columns).filter(([c, t]) => t === 'integer' && c !== 'prompt_id').map(([c]) => `sum(${c})::int AS ${c}`);
  return ds.query(`SELECT day, provider, country, language, entity_id, ${whole.join(', ')} FROM ${table} WHERE brand_id = $1 GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`, [brandId]);
}

/** The live projector's way: the feed in batches of `size` events, each batch in its transaction, on the live tables. */
async function projectIncrementally(size: number): Promise<void> {
  let after: FeedPosition = START;
  for (;;) {
    const page = await store.readAll({ after, limit: size, eventTypes: answerRollupsProjector.handles as string[] });
    if (page.events.length) await ds.transaction((m) => answerRollupsProjector.apply(page.events, { query: (text, params) => m.query(text, params), table: quoteIdent, rebuilding: false }));
    after = page.next;
    if (page.endOfFeed) return;
  }
}

beforeAll(async () => {
  db = await createTestDatabase();
  ds = createDataSource(db.url, 8);
  await ds.initialize();
  store = new PostgresEventStore({ pool: new Pool({ connectionString: db.url, max: 6 }), ownsPool: true, connectionString: db.url, registry: new EventSchemaRegistry(), pollIntervalMs: 50 });
  for (const name of ['Acme', 'Globex', 'Initech']) {
    const [{ id }] = await ds.query(`INSERT INTO organizations (name) VALUES ($1) RETURNING id::int`, [name]);
    orgs.push(id);
  }
  const [{ id: clientId }] = await ds.query(`INSERT INTO clients (organization_id, name) VALUES ($1, 'Client') RETURNING id::int`, [orgs[0]]);
  for (const [org, client] of [[orgs[0], clientId], [orgs[0], null], [orgs[1], null], [orgs[2], null]] as const) {
    const [{ id }] = await ds.query(`INSERT INTO brands (organization_id, client_id, name, domain) VALUES ($1, $2, $3, $4) RETURNING id::int`, [org, client, `B${brands.length}`, `b${brands.length}.example`]);
    brands.push({ org, id });
  }
  // Two shards hold organisations (the per-shard checkpoints are checked).
  expect(new Set(orgs.map((o) => shardOf(o, SHARDS))).size).toBe(SHARDS);
  for (const day of ['2025-03-01', '2025-03-02', '2025-03-03', '2025-03-04']) for (const brand of brands) await runFor(brand, day);
  // A second run on a day: cells of several answers.
  await runFor(brands[1], '2025-03-02');
  await reanalyse(12);
  await settled();
}, 240_000);

afterAll(async () => {
  await store?.close();
  await ds?.destroy();
  await db?.drop();
});

describe('the rollups rebuilt in bulk (issue 33 part 2)', () => {
  it('leave, row for row, what the live projector leaves on the same events (re-analyses, markets, no prompt), with every shard’s checkpoint at the end', async () => {
    await projectIncrementally(7);
    const live = await snapshot();
    expect((live.rollups as { answers: number }[]).some((r) => r.answers === 0)).toBe(true); // an entity a re-analysis dropped
    expect((live.rollups as { prompt_id: string; country: string }[]).some((r) => r.prompt_id === '0' && r.country === 'DE')).toBe(true);
    await ds.query(`TRUNCATE answer_daily_rollups, answer_rollup_sources`);
    const indexes = await ds.query(`SELECT indexname, indexdef FROM pg_indexes WHERE tablename IN ('answer_daily_rollups', 'answer_rollup_sources', 'answer_daily_provider_rollups') ORDER BY 1`);
    expect(indexes.length).toBe(5);

    const result = await new ProjectionRebuilder(ds, store, 50, SHARDS).rebuild(answerRollupsProjector);
    expect(await snapshot()).toEqual(live);
    expect(await ds.query(`SELECT to_regclass('answer_rollups__stage_cells') AS t`)).toEqual([{ t: null }]);

    const head = await settled();
    const events = (await store.readAll({ limit: 10_000, eventTypes: ['answer.analysed'] })).events;
    const cps: { name: string; commit_position: string; events_applied: string }[] = await ds.query(
      `SELECT name, commit_position::text, events_applied::text FROM projection_checkpoints WHERE split_part(name, '#', 1) = 'answer_rollups' ORDER BY name`,
    );
    expect(cps.map((c) => c.name)).toEqual(checkpointNames('answer_rollups', SHARDS));
    for (const [k, c] of cps.entries()) {
      expect(BigInt(c.commit_position) >= head.commit).toBe(true); // at the feed's end (past the horizon the last read saw)
      expect(Number(c.events_applied)).toBe(events.filter((e) => eventShard(e, SHARDS) === k).length);
    }
    expect(result.eventsRead).toBe(events.length);

    // Pages of 7 events: cells met on several pages and answers re-analysed pages later go through
    // staging; then sets of 32 bits, where nearly every cell and answer is a false "met before".
    await ds.query(`TRUNCATE answer_daily_rollups, answer_rollup_sources`);
    await new ProjectionRebuilder(ds, store, 7, SHARDS, 7).rebuild(answerRollupsProjector);
    expect(await snapshot()).toEqual(live);
    await ds.query(`TRUNCATE answer_daily_rollups, answer_rollup_sources`);
    await new ProjectionRebuilder(ds, store, 7, SHARDS, 7).rebuild({ ...answerRollupsProjector, bulk: rollupsBulkRebuild({ answers: 5, cells: 5 }) });
    expect(await snapshot()).toEqual(live);
    // The shadows' keys and indexes built after the load, under the live names.
    expect(await ds.query(`SELECT indexname, indexdef FROM pg_indexes WHERE tablename IN ('answer_daily_rollups', 'answer_rollup_sources', 'answer_daily_provider_rollups') ORDER BY 1`)).toEqual(indexes);

    // The page-by-page rebuild (no bulk) leaves the same rows: the comparison sees what a rebuild leaves.
    await new ProjectionRebuilder(ds, store, 5, SHARDS).rebuild({ ...answerRollupsProjector, bulk: undefined });
    expect(await snapshot()).toEqual(live);
  }, 120_000);
});

describe('a brand’s rollups rebuilt through {rollup-rebuilds} (issue 34 part 2)', () => {
  const prefix = testRedisPrefix();
  const redis = new Redis('redis://127.0.0.1:6379');
  let queues: Queues;
  let coordinator: ShardCoordinator;

  afterAll(async () => {
    await coordinator?.stop();
    await queues?.onApplicationShutdown();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('restores a corrupted brand exactly, leaves the other brands’ rows unwritten, and appends made meanwhile count once', async () => {
    const config = sectionOf(loadConfig({ PROJECTION_SHARDS: String(SHARDS), ROLLUP_REBUILD_CONCURRENCY: '2' }, [PROJECTION_CONFIG]), PROJECTION_CONFIG);
    queues = new Queues(sectionOf(loadConfig({ REDIS_PREFIX: prefix }, [QUEUE_CONFIG]), QUEUE_CONFIG));
    coordinator = new ShardCoordinator(ds, store, [{ name: 'visibility', members: [answerRollupsProjector] }], { shards: SHARDS, rebalanceMs: 200, batchSize: 5, lockRetryMs: 100, owner: 'test-worker' });
    coordinator.start();
    const caughtUp = async () => projectionsReached(ds.manager, ['answer_rollups'], await store.newestPosition());
    await until(caughtUp, 120_000, 'the live projector caught up');

    const [target, other, sameShard] = [brands[0], brands[2], brands[1]];
    const before = await snapshot();
    const untouched: { k: string; xmin: string }[] = await ds.query(`SELECT concat_ws('|', day, provider, prompt_id, query, country, language, entity_id) AS k, xmin::text FROM answer_daily_rollups WHERE brand_id = $1 ORDER BY 1`, [other.id]);
    await ds.query(`UPDATE answer_daily_rollups SET answers = answers + 3, visibility_sum = 42 WHERE brand_id = $1 AND day = '2025-03-02'`, [target.id]);
    await ds.query(`DELETE FROM answer_daily_rollups WHERE brand_id = $1 AND day = '2025-03-03' AND entity_id = $2`, [target.id, `b-${target.id}`]);
    await ds.query(`UPDATE answer_daily_provider_rollups SET answers = answers + 5 WHERE brand_id = $1`, [target.id]);
    expect(await providerSums('answer_daily_provider_rollups', target.id)).not.toEqual(await providerSums('answer_daily_rollups', target.id));
    expect(await snapshot()).not.toEqual(before);

    const processor = new BrandRollupRebuildProcessor(queues, ds, config);
    processor.onApplicationBootstrap();
    const rebuilds = new BrandRollupRebuilds(queues, config);
    const appending = (async () => {
      for (const day of ['2025-03-05', '2025-03-06', '2025-03-07']) {
        await runFor(target, day);
        await runFor(sameShard, day);
      }
      await reanalyse(4, [target, sameShard]);
      await settled();
    })();
    const ids = await rebuilds.enqueue([{ organizationId: target.org, brandId: target.id, requestId: 'test-1' }]);
    expect(await rebuilds.enqueue([{ organizationId: target.org, brandId: target.id, requestId: 'test-1' }])).toEqual(ids); // the same job id: queued once
    await appending;
    await until(async () => (await rebuilds.idle()) && (await caughtUp()), 120_000, 'the rebuild done and the appends projected');
    const job = await rebuilds['queue']().queue.getJob(ids[0]);
    expect(job?.returnvalue).toMatchObject({ brandId: target.id, checkpoint: checkpointNames('answer_rollups', SHARDS)[shardOf(target.org, SHARDS)] });

    // The other brand's rows were not written (same row versions).
    expect(await ds.query(`SELECT concat_ws('|', day, provider, prompt_id, query, country, language, entity_id) AS k, xmin::text FROM answer_daily_rollups WHERE brand_id = $1 ORDER BY 1`, [other.id])).toEqual(untouched);
    const repaired = await snapshot();
    // The brand's provider rollups (derived) refilled from its repaired fine rows.
    expect(await providerSums('answer_daily_provider_rollups', target.id)).toEqual(await providerSums('answer_daily_rollups', target.id));
    await coordinator.stop();
    // A full rebuild of the same feed: the same rows (every append counted once, the corruption gone).
    await new ProjectionRebuilder(ds, store, 50, SHARDS).rebuild(answerRollupsProjector);
    expect(repaired).toEqual(await snapshot());
  }, 300_000);
});
