import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { Client, Pool } from 'pg';
import { ALL_SCOPES, ApiKeysRepository } from '@libs/auth';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@libs/database';
import { EventSchemaRegistry, PostgresEventStore, type EventToAppend } from '@libs/event-store';
import { DEFAULT_SLA_POLICY, SEVERITIES, TYPES, dueAt, type Status } from '@libs/opportunities';
import { ProjectionRebuilder } from '@libs/projection-engine';
import { TenancyRepository } from '@libs/tenancy';
import { ALL_PROJECTORS } from '@projections';
import { percentile, round, withBenchDatabase } from './support/bench-database';
import { alternate, startServer } from './support/http-load';
import { spawnScript } from './support/spawn-script';

/**
 * npm run bench:opportunities — prints one JSON line. With BENCH_OPPORTUNITIES (default 1,000,000)
 * opportunities seeded through the event store (bulk appends) and projected:
 * - GET /api/v1/opportunities?<BENCH_LIST_QUERY> at 50 connections against a bare Fastify + pg
 *   app running the same SQL, alternating, in the same run (ratio and p99);
 * - GET /api/v1/opportunities/_summary/kpis at 50 connections (p99), alternating with the bare app
 *   running the same statement (its p99 is what this machine allows);
 * - transitions over distinct opportunities from 32 concurrent clients (per second), and the time
 *   from a transition's response to its appearance in the list read model (p50/p99).
 */
const N = Number(process.env.BENCH_OPPORTUNITIES ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const LIST_QUERY = process.env.BENCH_LIST_QUERY ?? 'status=triaged,assigned&severity=high,critical&limit=50';

/** The API or the bare server, started once its probe answers. */
const start = (script: string, env: Record<string, string>) =>
  startServer(script, env, `http://127.0.0.1:${env.PORT ?? env.BASELINE_PORT}/${env.BASELINE_PORT ? 'opportunities?limit=1' : 'health'}`);

const PATTERNS: Status[][] = [[], [], [], ['triaged'], ['triaged', 'assigned'], ['assigned', 'in_progress'], ['dismissed'], ['triaged'], [], ['assigned']];

/** Seeds N opportunities through the event store (bulk appends): one detected event each, some with a few moves. */
async function seed(ds: DataSource, store: PostgresEventStore, tenancy: TenancyRepository, organizationId: number): Promise<number> {
  const brands = await Promise.all([1, 2, 3, 4].map((i) => tenancy.createBrand({ organizationId, name: `Brand ${i}`, domain: `brand${i}.com` })));
  const seedStarted = Date.now();
  const t0 = Date.now() - 200 * 86_400_000;
  const meta = { organizationId, actor: 'bench', correlationId: 'seed' };
  for (let from = 1; from <= N; from += 5000) {
    const items: { streamId: string; events: EventToAppend[] }[] = [];
    for (let id = from; id < Math.min(N + 1, from + 5000); id++) {
      const severity = SEVERITIES[id % 4];
      const type = TYPES[id % TYPES.length];
      const detectedAt = new Date(t0 + Math.floor((id / N) * 199 * 86_400_000));
      const events: EventToAppend[] = [
        {
          type: 'opportunity.detected',
          data: {
            id, organizationId, brandId: brands[id % 4].id, type, severity, title: `${type} finding ${id}`, description: null,
            fingerprint: `bench-${id}`, source: 'bench', evidence: { n: id }, recurrenceOf: null, slaPolicy: 'default',
            dueAt: dueAt(detectedAt, severity, DEFAULT_SLA_POLICY).toISOString(), detectedAt: detectedAt.toISOString(),
          },
          metadata: meta,
        },
      ];
      let status: Status = 'detected';
      PATTERNS[id % PATTERNS.length].forEach((to, k) => {
        events.push({ type: 'opportunity.transitioned', data: { from: status, to, reason: null, owner: to === 'assigned' ? 'bench' : null, at: new Date(detectedAt.getTime() + (k + 1) * 3_600_000).toISOString() }, metadata: meta });
        status = to;
      });
      items.push({ streamId: `opportunity-${id}`, events });
    }
    await store.appendToNewStreams(items);
  }
  await ds.query(`SELECT setval('opportunity_ids', $1)`, [N]);
  // As autovacuum would after a bulk load: planner statistics for the feed's index scans.
  await ds.query('VACUUM ANALYZE events');
  return (Date.now() - seedStarted) / 1000;
}

async function main(): Promise<void> {
  await withBenchDatabase('opportunities', async (url, reused) => {
    const ds = createDataSource(url, 4);
    await ds.initialize();
    const pool = new Pool({ connectionString: url, max: 8 });
    pool.on('error', () => undefined);
    const store = new PostgresEventStore({ pool, connectionString: url, registry: new EventSchemaRegistry() });
    // BENCH_KEEP_DATABASE=1 keeps the seeded and projected database for the next run (which then
    // re-projects only if the read models are not all there, and otherwise measures only;
    // transitions of earlier runs stay applied).
    const seeded = reused && Number((await ds.query(`SELECT count(*) AS n FROM event_streams WHERE stream_id LIKE 'opportunity-%'`))[0].n) >= N;
    const tenancy = new TenancyRepository(ds);
    const org = seeded ? { id: Number((await ds.query(`SELECT id FROM organizations WHERE name = 'Bench'`))[0].id) } : await tenancy.createOrganization('Bench', 'enterprise');
    const key = (await new ApiKeysRepository(ds).create({ organizationId: org.id, scopes: [...ALL_SCOPES], tier: 'enterprise' })).key;
    const rebuilds: Record<string, number> = {};
    let seedSeconds = 0;
    if (!seeded) seedSeconds = await seed(ds, store, tenancy, org.id);
    // Project: a rebuild from zero of every projection, so the worker started below is caught up
    // and idle when the measurements begin.
    // (A kept database re-projects only what a migration reset: those without a checkpoint.)
    const projected = new Set(seeded ? (await ds.query(`SELECT name FROM projection_checkpoints`)).map((r: { name: string }) => r.name) : []);
    for (const p of ALL_PROJECTORS.filter((x) => !projected.has(x.name))) {
      rebuilds[p.name] = (await new ProjectionRebuilder(ds, store, 5000).rebuild(p)).eventsPerSecond;
      for (const t of p.tables) await ds.query(`VACUUM ANALYZE ${t}`);
    }
    const [{ events }] = await ds.query('SELECT count(*)::int AS events FROM events');

    const env = {
      DATABASE_URL: url,
      REDIS_PREFIX: `bench_${process.pid}_${randomUUID().slice(0, 6)}`,
      LOG_LEVEL: 'warn',
      PROJECTION_POLL_MS: '200',
      RATE_LIMIT_TIERS: JSON.stringify({ enterprise: { perMinute: 1_000_000_000, perDay: 1_000_000_000_000, burst: 1_000_000 } }),
    };
    const worker = await new Promise<ChildProcess>((resolve) => {
      const w = spawnScript('apps/worker/src/main.ts', env, 'ignore');
      setTimeout(() => resolve(w), 3000);
    });
    const api = await start('apps/api/src/main.ts', { ...env, PORT: '3801', HOST: '127.0.0.1' });
    const baseline = await start('bench/support/list-baseline-server.ts', { ...env, BASELINE_PORT: '3802', BASELINE_ORG: String(org.id) });
    const headers = { 'x-api-key': key };
    try {
      // The list, then the KPI summary, each against the bare server running the same statement.
      const list = await alternate(`http://127.0.0.1:3801/api/v1/opportunities?${LIST_QUERY}`, `http://127.0.0.1:3802/opportunities?${LIST_QUERY}`, headers, SECONDS);
      const kpis = await alternate('http://127.0.0.1:3801/api/v1/opportunities/_summary/kpis', 'http://127.0.0.1:3802/kpis', headers, SECONDS);

      // Transitions detected → triaged over distinct opportunities, 32 clients; sample visibility.
      const candidates: number[] = (await ds.query(`SELECT id FROM opportunities WHERE status = 'detected' ORDER BY id DESC LIMIT 60000`)).map((r: { id: string }) => Number(r.id));
      let next = 0;
      let done = 0;
      let failed = 0;
      const pending = new Map<number, number>();
      const visibility: number[] = [];
      const watcher = new Client({ connectionString: url });
      await watcher.connect();
      let watching = true;
      const watch = (async () => {
        while (watching || pending.size) {
          if (pending.size) {
            const ids = [...pending.keys()];
            // Prepared, and every 5 ms: the watcher is part of the load, so it is kept light (a
            // sample is seen at most ~5 ms after it appears: the figure errs on the slow side).
            const seen = await watcher.query({ name: 'watch', text: `SELECT id FROM opportunities WHERE id = ANY($1::bigint[]) AND status = 'triaged'`, values: [ids] });
            const at = performance.now();
            for (const r of seen.rows as { id: string }[]) {
              visibility.push(at - pending.get(Number(r.id))!);
              pending.delete(Number(r.id));
            }
          }
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      // The same load generator as the reads (autocannon, 32 connections), each request a
      // distinct opportunity; every tenth success is timed until the list shows it.
      const started = performance.now();
      const result = await autocannon({
        url: 'http://127.0.0.1:3801',
        connections: 32,
        duration: SECONDS,
        requests: [
          {
            method: 'POST',
            setupRequest: (request, context) => {
              const id = candidates[next++ % candidates.length];
              (context as { id?: number }).id = id;
              return { ...request, path: `/api/v1/opportunities/${id}/transition`, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ toStatus: 'triaged', reason: 'bench' }) };
            },
            onResponse: (status, _body, context) => {
              if (status !== 200) return void failed++;
              if (++done % 10 === 0) pending.set(Number((context as { id?: number }).id), performance.now());
            },
          },
        ],
      });
      if (result.errors) throw new Error(`transitions: ${result.errors} errors`);
      const transitionSeconds = (performance.now() - started) / 1000;
      watching = false;
      await watch;
      await watcher.end();
      visibility.sort((a, b) => a - b);
      process.stdout.write(
        JSON.stringify({
          bench: 'opportunities',
          cores: cpus().length,
          opportunities: N,
          events,
          reusedDatabase: seeded,
          seedSeconds: round(seedSeconds, 1),
          rebuildEventsPerSec: rebuilds,
          list: { query: LIST_QUERY, apiRps: round(list.apiRps), baselineRps: round(list.baselineRps), ratio: round(list.apiRps / list.baselineRps, 3), apiP99Ms: list.apiP99Ms, baselineP99Ms: list.baselineP99Ms, p99VsBaseline: round(list.apiP99Ms / list.baselineP99Ms, 2) },
          kpis: { rps: round(kpis.apiRps), baselineRps: round(kpis.baselineRps), p99Ms: kpis.apiP99Ms, baselineP99Ms: kpis.baselineP99Ms },
          transitions: {
            clients: 32,
            perSec: round(done / transitionSeconds),
            failed,
            visibleInListP50Ms: round(percentile(visibility, 50), 1),
            visibleInListP99Ms: round(percentile(visibility, 99), 1),
            sampled: visibility.length,
          },
          goals: { listRatio: 0.5, listP99Ms: 25, listP99VsBaseline: 1.5, kpisP99Ms: 25, transitionsPerSec: 1000, visibleP99Ms: 100 },
        }) + '\n',
      );
    } finally {
      for (const child of [api, baseline, worker]) child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 1500));
      await store.close();
      await pool.end();
      await ds.destroy();
    }
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
