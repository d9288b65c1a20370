import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { Pool } from 'pg';
import { ALL_SCOPES, ApiKeysRepository } from '@libs/auth';
import { createDataSource } from '@libs/database';
import { EventSchemaRegistry, PostgresEventStore } from '@libs/event-store';
import { addDays } from '@libs/metrics';
import { ProjectionRebuilder } from '@libs/projection-engine';
import { TenancyRepository } from '@libs/tenancy';
import { answerRollupsProjector } from '@projections';
import { round, withBenchDatabase } from './support/bench-database';
import { seedAnswerHistory } from './support/answer-history';
import { compare as compareFor, startServer } from './support/http-load';

/**
 * npm run bench:visibility — prints one JSON line:
 * - BENCH_BRANDS (20) brands x BENCH_PROMPTS (10) prompts x 4 providers x BENCH_DAYS (365) days of
 *   analysed answers written through the event store (the 2,000,000 answers take several
 *   runs a day: BENCH_RUNS_PER_DAY=7; one by default, 292,000 answers), then the rollups rebuilt from the
 *   event store: answers/s;
 * - visibility/trends?days=365, visibility/sov (90 days) and brand-index/latest at 50 connections
 *   against a bare Fastify + pg server running the same SQL, alternating, in the same run:
 *   requests/s and p99 of each side, and their ratios.
 */
const BRANDS = Number(process.env.BENCH_BRANDS ?? 20);
const PROMPTS = Number(process.env.BENCH_PROMPTS ?? 10);
const DAYS = Number(process.env.BENCH_DAYS ?? 365);
/** Runs a day; 7 gives the full size with the defaults (20 x 10 x 4 x 365 x 7 = 2,044,000 answers). */
const RUNS_PER_DAY = Number(process.env.BENCH_RUNS_PER_DAY ?? 1);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

async function main(): Promise<void> {
  await withBenchDatabase('visibility', async (url) => {
    const ds = createDataSource(url, 4);
    await ds.initialize();
    const store = new PostgresEventStore({ pool: new Pool({ connectionString: url, max: 4 }), ownsPool: true, connectionString: url, registry: new EventSchemaRegistry() });
    const children: ChildProcess[] = [];
    try {
      const tenancy = new TenancyRepository(ds);
      const org = await tenancy.createOrganization('Bench', 'enterprise');
      const key = (await new ApiKeysRepository(ds).create({ organizationId: org.id, scopes: [...ALL_SCOPES] })).key;
      const s0 = performance.now();
      const { brands, answers, yesterday } = await seedAnswerHistory(ds, store, org.id, { brands: BRANDS, prompts: PROMPTS, days: DAYS, runsPerDay: RUNS_PER_DAY });
      const seedSeconds = (performance.now() - s0) / 1000;
      const r0 = performance.now();
      await new ProjectionRebuilder(ds, store, 5000).rebuild(answerRollupsProjector);
      const rebuildSeconds = (performance.now() - r0) / 1000;
      await ds.query('VACUUM ANALYZE answer_daily_rollups');

      const env = { DATABASE_URL: url, REDIS_PREFIX: `bench_${process.pid}_${randomUUID().slice(0, 6)}`, LOG_LEVEL: 'warn', RATE_LIMIT_TIERS: JSON.stringify({ enterprise: { perMinute: 1_000_000_000, perDay: 1_000_000_000_000, burst: 1_000_000 } }) };
      children.push(await startServer('apps/api/src/main.ts', { ...env, PORT: '3811', HOST: '127.0.0.1' }, 'http://127.0.0.1:3811/health'));
      children.push(await startServer('bench/support/visibility-baseline-server.ts', { ...env, BASELINE_PORT: '3812', BASELINE_ORG: String(org.id) }, `http://127.0.0.1:3812/brand-index?brandId=${brands[0].id}`));
      const brandId = brands[0].id;
      const end = yesterday;
      const start90 = addDays(end, -89);
      const headers = { 'x-api-key': key };
      const compare = (apiUrl: string, baselineUrl: string, headers: Record<string, string>) => compareFor(apiUrl, baselineUrl, headers, SECONDS);
      const trends = await compare(`http://127.0.0.1:3811/api/v1/visibility/trends?brandId=${brandId}&days=365`, `http://127.0.0.1:3812/trends?brandId=${brandId}&days=365`, headers);
      const sov = await compare(`http://127.0.0.1:3811/api/v1/visibility/sov?brandId=${brandId}&startDate=${start90}&endDate=${end}`, `http://127.0.0.1:3812/sov?brandId=${brandId}&startDate=${start90}&endDate=${end}`, headers);
      const index = await compare(`http://127.0.0.1:3811/api/v1/brand-index/latest?brandId=${brandId}`, `http://127.0.0.1:3812/brand-index?brandId=${brandId}`, headers);
      const [{ rows }] = await ds.query('SELECT count(*)::int AS rows FROM answer_daily_rollups');
      console.log(
        JSON.stringify({
          answers,
          rollupRows: rows,
          seedSeconds: round(seedSeconds, 1),
          rebuild: { seconds: round(rebuildSeconds, 1), answersPerSecond: round(answers / rebuildSeconds), goalAnswersPerSecond: 20000 },
          trends365: trends,
          sov90: sov,
          brandIndex: index,
          goals: { rpsRatioAtLeast: 0.5, p99RatioAtMost: 1.5 },
        }),
      );
    } finally {
      for (const c of children) c.kill('SIGTERM');
      await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
      await store.close();
      await ds.destroy();
    }
  });
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
