import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { ALL_SCOPES, ApiKeysRepository } from '@libs/auth';
import { createDataSource, ensureDatabaseExists, runMigrations } from '@libs/database';
import { addDays, utcDay } from '@libs/metrics';
import { TenancyRepository } from '@libs/tenancy';
import { ALL_MIGRATIONS } from '../../apps/composition/migrations';
import { cli } from '../support/cli';
import { startFakeProviders, type FakeProviders } from '../support/fake-providers';
import { startPostgresPair, type LocalPostgresPair } from '../support/pg-replica';
import { exited, startApp, until } from '../support/processes';
import { freePorts, startRedisCluster, type LocalRedisCluster } from '../support/redis-cluster';
import { Receiver } from '../webhooks/support/receiver';
import { shardOwners, rebuildAndCompare } from './support/scale-checks';

/**
 * Issue 34 part 5, the scale-out test bed (`npm run test:scale`): a PostgreSQL primary with a
 * streaming replica and a Redis Cluster of three masters with a replica each, all from Debian's
 * packages on loopback ports; two API processes (one reading analytics from the replica) and
 * three worker processes on them. Audit requests (the providers' local fakes), log ingestion and
 * webhook deliveries go through them while a worker and a Redis master are SIGKILLed.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const D1 = addDays(utcDay(Date.now()), -1);
const GPT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';

let pg: LocalPostgresPair;
let redis: LocalRedisCluster;
let fakes: FakeProviders;
const receiver = new Receiver();
const DB = 'ai_visibility';
let sql: Client;

async function http(base: string, key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${base}${path}`, { method, headers: { 'x-api-key': key, ...(body !== undefined && { 'content-type': 'application/json' }), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Json) : {} };
}

beforeAll(async () => {
  [pg, redis, fakes] = await Promise.all([startPostgresPair(), startRedisCluster(3, 1), startFakeProviders()]);
  await receiver.start();
  await ensureDatabaseExists(pg.primaryUrl(DB));
  await runMigrations(pg.primaryUrl(DB), ALL_MIGRATIONS);
  sql = new Client({ connectionString: pg.primaryUrl(DB) });
  await sql.connect();
}, 240_000);
afterAll(async () => {
  await sql?.end();
  await receiver.stop();
  await fakes?.close();
  await redis?.stop();
  await pg?.stop();
});

it('two APIs and three workers on a replica and a Redis Cluster: nothing lost or doubled when a worker and a Redis master die', async () => {
  const prefix = `scale_${randomBytes(3).toString('hex')}`;
  const common = {
    DATABASE_URL: pg.primaryUrl(DB),
    REDIS_CLUSTER_NODES: redis.seeds,
    REDIS_PREFIX: prefix,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    DATABASE_POOL_SIZE: '8',
    OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fakes.openai.baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fakes.anthropic.baseUrl,
    GEMINI_API_KEY: 'gemini-test', GEMINI_BASE_URL: fakes.gemini.baseUrl,
    PERPLEXITY_API_KEY: 'pplx-test', PERPLEXITY_BASE_URL: fakes.perplexity.baseUrl,
    ANSWER_BACKOFF_MS: '50', ANSWER_TIMEOUT_MS: '5000',
    ANALYSIS_SCHEDULER_POLL_MS: '86400000',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_SCHEDULE_MS: '200,400,800,1600', WEBHOOK_RELAY_POLL_MS: '100', WEBHOOK_RECONCILE_MS: '2000',
    PROJECTION_POLL_MS: '100',
    AGENT_DNS_SERVERS: 'off', AGENT_ROBOTS_URL_TEMPLATE: 'off',
  };
  const ports = await freePorts(2);
  const apis = [
    startApp('api', { ...common, PORT: String(ports[0]), HOST: '127.0.0.1' }),
    startApp('api', { ...common, PORT: String(ports[1]), HOST: '127.0.0.1', DATABASE_READ_URL: pg.replicaUrl(DB) }),
  ];
  const bases = ports.map((p) => `http://127.0.0.1:${p}`);
  const workers = [0, 1, 2].map(() => startApp('worker', common));
  const all = [...apis, ...workers];

  // An organisation, its key and a brand, written on the primary as an operator would.
  const ds = await createDataSource(pg.primaryUrl(DB), 2).initialize();
  const tenancy = new TenancyRepository(ds);
  const org = await tenancy.createOrganization('Scale', 'enterprise');
  const key = (await new ApiKeysRepository(ds).create({ organizationId: org.id, scopes: [...ALL_SCOPES], tier: 'enterprise', clientId: null })).key;
  const brand = (await tenancy.createBrand({ organizationId: org.id, clientId: null, name: 'Acme', domain: 'acme.example', competitors: [{ name: 'Globex', domain: 'globex.com' }] })).id;
  try {
    for (const base of bases) await until(async () => (await fetch(`${base}/health`).catch(() => null))?.ok === true, 120_000, `the API at ${base}`);

    const hook = await http(bases[0], key, 'POST', '/api/v1/webhooks', { url: `http://127.0.0.1:${receiver.port}/scale`, events: ['webhook.test'] });
    expect(hook.status).toBe(201);
    receiver.register('/scale', hook.body.data.secret);

    const runs: number[] = [];
    const deliveries: string[] = [];
    let ingested = 0;
    const load = async (round: number) => {
      const base = bases[round % 2];
      const audit = await http(base, key, 'POST', '/api/v1/audit-requests', { brandId: brand, queries: [`best crm ${round}`, `top crm tools ${round}`] });
      expect(audit.status).toBe(201);
      runs.push(audit.body.data.analysisRunId);
      const entries = Array.from({ length: 20 }, (_, i) => ({ timestamp: `${D1}T10:${String(round % 60).padStart(2, '0')}:00Z`, method: 'GET', host: 'www.acme.example', path: `/r${round}/p${i}`, status: 200, ip: '20.171.206.12', userAgent: GPT }));
      // The same batch sent to both APIs under one Idempotency-Key is stored once.
      const sent = await Promise.all(bases.map((b) => http(b, key, 'POST', '/api/v1/agent-analytics/ingest', entries, { 'idempotency-key': `batch-${round}` })));
      expect(sent.map((s) => s.status)).toEqual([202, 202]);
      ingested += entries.length;
      const test = await http(base, key, 'POST', `/api/v1/webhooks/${hook.body.data.id}/test`);
      expect(test.status).toBe(200);
      deliveries.push(test.body.data.deliveryId);
    };

    for (let round = 0; round < 6; round++) await load(round);
    // The worker that owns most units of work dies, and so does the master of the webhook queue.
    await until(async () => (await shardOwners(sql)).some((o) => o.owner), 60_000, 'projectors owned');
    const before = await shardOwners(sql);
    const byPid = new Map<string, number>();
    for (const o of before) if (o.pid) byPid.set(o.pid, (byPid.get(o.pid) ?? 0) + 1);
    const victimPid = [...byPid.entries()].sort((a, b) => b[1] - a[1])[0][0];
    const victim = workers.find((w) => String(w.pid) === victimPid)!;
    expect(victim).toBeDefined();
    victim.kill('SIGKILL');
    const master = await redis.masterOf('{webhook-deliveries}');
    redis.kill(master);
    for (let round = 6; round < 12; round++) await load(round);
    await redis.healthy(60_000);
    expect(await redis.masters()).not.toContain(master);

    // Every audit run completes, every delivery arrives (at least once), every visit is stored once.
    await until(async () => {
      const r = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM analysis_runs WHERE id = ANY($1::bigint[]) AND status = 'completed'`, [runs]);
      return r.rows[0].n === runs.length;
    }, 180_000, 'every audit run completed');
    await until(() => deliveries.every((id) => receiver.received.some((r) => r.id === id)), 120_000, 'every webhook delivered');
    for (const r of receiver.received.filter((x) => x.path === '/scale')) expect(r.verified).toBe(true);
    // At least once, deduplicable: a repeat carries the same webhook-id and body.
    const bodies = new Map<string, string>();
    for (const r of receiver.received) {
      const b = JSON.stringify(r.body);
      expect(bodies.get(r.id) ?? b).toBe(b);
      bodies.set(r.id, b);
    }
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(deliveries.length);
    const visits = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM bot_visits WHERE organization_id = $1`, [org.id]);
    expect(visits.rows[0].n).toBe(ingested);

    // Every event projected once: the operations projector's counts equal the store's, type by type.
    await until(async () => {
      const counts = await sql.query(`SELECT type, count::int FROM event_type_counts ORDER BY type`);
      const truth = await sql.query(`SELECT type, count(*)::int AS count FROM events GROUP BY type ORDER BY type`);
      return JSON.stringify(counts.rows) === JSON.stringify(truth.rows);
    }, 60_000, 'event_type_counts equal to the event store');

    // The shards moved: every unit the dead worker held is held by a living one.
    await until(async () => {
      const after = await shardOwners(sql);
      return before.filter((b) => b.pid === victimPid).every((b) => {
        const now = after.find((a) => a.unit === b.unit);
        return now?.pid && now.pid !== victimPid && now.changedSince(b);
      });
    }, 60_000, 'the dead worker\'s units taken over');

    // The replica serves the analytics reads of the second API, and they agree with the primary's once it has replayed.
    await pg.caughtUp();
    const overview = '/api/v1/agent-analytics/overview?days=30';
    const [fromPrimary, fromReplica] = await Promise.all(bases.map((b) => http(b, key, 'GET', overview)));
    expect(fromReplica.status).toBe(200);
    expect(fromReplica.body).toEqual(fromPrimary.body);
    expect(fromReplica.body.data).toBeDefined();
    // … and it was the replica that answered: its pool holds connections to the database there.
    const replica = new Client({ connectionString: pg.replicaUrl('postgres') });
    await replica.connect();
    const onReplica = (await replica.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1`, [DB])).rows[0].n;
    await replica.end();
    expect(onReplica).toBeGreaterThan(0);

    // A revoked key is refused by both APIs within the propagation bound (1 s through Redis pub/sub).
    const spare = await new ApiKeysRepository(ds).create({ organizationId: org.id, scopes: [...ALL_SCOPES], tier: 'enterprise', clientId: null });
    for (const b of bases) expect((await http(b, spare.key, 'GET', '/api/v1/webhooks')).status).toBe(200);
    const revoked = await cli(['key', 'revoke', '--id', String(spare.id)], common);
    expect({ code: revoked.code, stderr: revoked.stderr }).toEqual({ code: 0, stderr: '' });
    const at = Date.now();
    await until(async () => (await Promise.all(bases.map((b) => http(b, spare.key, 'GET', '/api/v1/webhooks')))).every((r) => r.status === 401), 1000, 'the revoked key refused everywhere within 1 s');
    expect(Date.now() - at).toBeLessThan(1000);
  } finally {
    for (const p of all) if (p.exitCode === null && p.signalCode === null) p.kill('SIGTERM');
    await Promise.all(all.map((p) => exited(p)));
    await ds.destroy();
  }

  // No read-model row missing or doubled against a single-process rebuild.
  const compared = await rebuildAndCompare(sql, pg.primaryUrl(DB));
  expect(compared.analysis_results).toBeGreaterThan(0);
}, 600_000);
