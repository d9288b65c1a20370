import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { addDays } from '@libs/metrics';
import { ProjectionRebuilder } from '@libs/projection-engine';
import { answerRollupsProjector } from '@projections';
import { round } from './support/bench-database';
import { serverEnv, withAnswerHistory, type HistoryBench } from './support/answer-history';
import { compare, oneAtATime, serverPorts, startServer } from './support/http-load';
import { timeBareCopy } from './support/bare-copy';

/**
 * npm run bench:visibility — prints one JSON line:
 * - BENCH_BRANDS (20) brands x BENCH_PROMPTS (10) prompts x 4 providers x BENCH_DAYS (365) days of
 *   analysed answers written through the event store (the 2,000,000 answers take several
 *   runs a day: BENCH_RUNS_PER_DAY=7; one by default, 292,000 answers), then the rollups rebuilt from the
 *   event store: answers/s (a bulk rebuild: pages summed in memory, COPYed into index-less shadow
 *   tables), beside the bare baseline in the same run: the same rows (rollups and contributions)
 *   written with COPY into fresh tables;
 * - visibility/trends?days=365 one request at a time (20, median and slowest ms) on each side;
 * - visibility/trends?days=365, visibility/sov (90 days) and brand-index/latest at 50 connections
 *   against a bare Fastify + pg server running the same SQL, alternating, in the same run:
 *   requests/s and p99 of each side, and their ratios (BENCH_REBUILD_ONLY=1: the rebuild only;
 *   BENCH_READS_ONLY=1 with BENCH_KEEP_DATABASE=1: the reads only, on a kept history an earlier run
 *   rebuilt, without rebuilding it (the API still counts its usage there); `rebuild` is then null).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

async function main(): Promise<void> {
  await withAnswerHistory('visibility', async ({ url, ds, store, organizationId, key, brands, answers, yesterday, seedSeconds, reused, children }) => {
    const readsOnly = process.env.BENCH_READS_ONLY === '1';
    if (readsOnly && !reused) throw new Error('BENCH_READS_ONLY=1 reads a kept history (BENCH_KEEP_DATABASE=1) whose rollups an earlier run built: run once without it first');
    const rebuild = readsOnly ? null : await rebuildRollups(url, ds, store, answers);
    if (process.env.BENCH_REBUILD_ONLY === '1' && rebuild) {
      const [{ rows }] = await ds.query('SELECT count(*)::int AS rows FROM answer_daily_rollups');
      console.log(JSON.stringify({ answers, rollupRows: rows, seedSeconds: round(seedSeconds, 1), rebuild }));
      return;
    }

    const ports = await serverPorts();
    const [api, bare] = [`http://127.0.0.1:${ports.api}`, `http://127.0.0.1:${ports.baseline}`];
    const env = serverEnv(url, `bench_${process.pid}_${randomUUID().slice(0, 6)}`);
    children.push(await startServer('apps/api/src/main.ts', { ...env, PORT: String(ports.api), HOST: '127.0.0.1' }, `${api}/health`));
    children.push(await startServer('bench/support/visibility-baseline-server.ts', { ...env, BASELINE_PORT: String(ports.baseline), BASELINE_ORG: String(organizationId) }, `${bare}/brand-index?brandId=${brands[0].id}`));
    const brandId = brands[0].id;
    const end = yesterday;
    const start90 = addDays(end, -89);
    const headers = { 'x-api-key': key };
    const trends = await compare(`${api}/api/v1/visibility/trends?brandId=${brandId}&days=365`, `${bare}/trends?brandId=${brandId}&days=365`, headers, SECONDS);
    // One year-trend request at a time (the issue: under 100 ms on a quiet machine), each side.
    const trendsAlone = { api: await oneAtATime(`${api}/api/v1/visibility/trends?brandId=${brandId}&days=365`, headers), baseline: await oneAtATime(`${bare}/trends?brandId=${brandId}&days=365`, {}) };
    const sov = await compare(`${api}/api/v1/visibility/sov?brandId=${brandId}&startDate=${start90}&endDate=${end}`, `${bare}/sov?brandId=${brandId}&startDate=${start90}&endDate=${end}`, headers, SECONDS);
    const index = await compare(`${api}/api/v1/brand-index/latest?brandId=${brandId}`, `${bare}/brand-index?brandId=${brandId}`, headers, SECONDS);
    const [{ rows }] = await ds.query('SELECT count(*)::int AS rows FROM answer_daily_rollups');
    console.log(
      JSON.stringify({
        answers,
        rollupRows: rows,
        seedSeconds: round(seedSeconds, 1),
        rebuild,
        trends365: trends,
        trends365OneAtATime: trendsAlone,
        sov90: sov,
        brandIndex: index,
        goals: { rpsRatioAtLeast: 0.5, p99RatioAtMost: 1.5 },
      }),
    );
  });
}

/** The rollups rebuilt from the event store, timed, beside the bare COPY of the same rows. */
async function rebuildRollups(url: string, ds: HistoryBench['ds'], store: HistoryBench['store'], answers: number) {
  const r0 = performance.now();
  await new ProjectionRebuilder(ds, store, 5000).rebuild(answerRollupsProjector);
  const rebuildSeconds = (performance.now() - r0) / 1000;
  await ds.query('VACUUM ANALYZE answer_daily_rollups');
  const bare = await timeBareCopy(url, ['answer_daily_rollups', 'answer_rollup_sources']);
  return {
    seconds: round(rebuildSeconds, 1),
    answersPerSecond: round(answers / rebuildSeconds),
    goalAnswersPerSecond: 20000,
    bareCopy: { rows: bare.rows, seconds: round(bare.seconds, 1), answersPerSecond: round(answers / bare.seconds) },
    ratioToBare: round(bare.seconds / rebuildSeconds, 2),
  };
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
