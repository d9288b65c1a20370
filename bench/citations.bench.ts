import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { addDays } from '@libs/metrics';
import { ProjectionRebuilder } from '@libs/projection-engine';
import { CITATION_PROJECTORS } from '@projections';
import { round } from './support/bench-database';
import { serverEnv, withAnswerHistory } from './support/answer-history';
import { compare, oneAtATime, startServer } from './support/http-load';

/**
 * npm run bench:citations — prints one JSON line:
 * - the visibility benchmark's answers (bench/support/answer-history: BENCH_BRANDS (20) brands ×
 *   BENCH_PROMPTS (10) prompts × 4 providers × BENCH_DAYS (365) days × BENCH_RUNS_PER_DAY (1);
 *   BENCH_RUNS_PER_DAY=7 is the 2,044,000 answers) written through the event store, then
 *   the five citation read models rebuilt from it: answers/s, seconds each, rows;
 * - citation-sources/top?range=90, citation-sources/absences (90 days), prompts/insights and
 *   changes (90 days) at 50 connections against a bare Fastify + pg server running the same SQL,
 *   alternating, in the same run (BENCH_SECONDS each): requests/s and p99 of each side, and ratios;
 * - citations/trends?days=365 and prompts/trends?days=365 the same way, after checking that one
 *   response of each side is byte for byte the same JSON (the bench fails otherwise), with the
 *   median of a few requests one at a time on the idle servers (`singleMs`, `baselineSingleMs`).
 * BENCH_READS_ONLY=1 with BENCH_KEEP_DATABASE=1, on a kept history an earlier run rebuilt: the reads only.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
/** The API's port (BENCH_PORT, 3831 by default) and the bare server's, the next one. */
const PORT = Number(process.env.BENCH_PORT ?? 3831);
const TABLES = ['citation_records', 'citation_sources', 'prompt_answers', 'citation_daily_rollups', 'answer_changes', 'change_answer_states', 'prompt_discoveries'];

async function main(): Promise<void> {
  // BENCH_NAME: the database's name part (a kept history of one's own beside another run's).
  await withAnswerHistory(process.env.BENCH_NAME ?? 'citations', async ({ url, ds, store, organizationId, key, brands, answers, yesterday, seedSeconds, reused, children }) => {
    // BENCH_READS_ONLY=1 on a kept database (BENCH_KEEP_DATABASE=1) that an earlier run rebuilt: the reads only.
    const readsOnly = process.env.BENCH_READS_ONLY === '1' && reused;
    const rebuild: Record<string, number> = {};
    const r0 = performance.now();
    for (const projector of readsOnly ? [] : CITATION_PROJECTORS) {
      const p0 = performance.now();
      await new ProjectionRebuilder(ds, store, 5000).rebuild(projector);
      rebuild[projector.name] = round((performance.now() - p0) / 1000, 1);
    }
    const rebuildSeconds = (performance.now() - r0) / 1000;
    const rows: Record<string, number> = {};
    for (const t of TABLES) {
      await ds.query(`${readsOnly ? 'ANALYZE' : 'VACUUM ANALYZE'} ${t}`);
      rows[t] = (await ds.query(`SELECT count(*)::int AS n FROM ${t}`))[0].n;
    }

    const env = serverEnv(url, `bench_${process.pid}_${randomUUID().slice(0, 6)}`);
    const brandId = brands[0].id;
    children.push(await startServer('apps/api/src/main.ts', { ...env, PORT: String(PORT), HOST: '127.0.0.1' }, `http://127.0.0.1:${PORT}/health`));
    children.push(await startServer('bench/support/citations-baseline-server.ts', { ...env, BASELINE_PORT: String(PORT + 1), BASELINE_ORG: String(organizationId) }, `http://127.0.0.1:${PORT + 1}/changes?brandId=${brandId}&startDate=${yesterday}&endDate=${yesterday}`));
    const headers = { 'x-api-key': key };
    const period = `brandId=${brandId}&startDate=${addDays(yesterday, -89)}&endDate=${yesterday}`;
    const api = (path: string) => `http://127.0.0.1:${PORT}/api/v1/${path}`;
    const bare = (path: string) => `http://127.0.0.1:${PORT + 1}/${path}`;
    const top = await compare(api(`citation-sources/top?brandId=${brandId}&range=90`), bare(`top?brandId=${brandId}&range=90`), headers, SECONDS);
    const absences = await compare(api(`citation-sources/absences?brandId=${brandId}&range=90&minScore=0`), bare(`absences?brandId=${brandId}&range=90`), headers, SECONDS);
    const insights = await compare(api(`prompts/insights?${period}`), bare(`insights?${period}`), headers, SECONDS);
    const changes = await compare(api(`changes?${period}`), bare(`changes?${period}`), headers, SECONDS);
    const year = `brandId=${brandId}&days=365`;
    const citationTrends = await yearTrend(api(`citations/trends?${year}`), bare(`citation-trends?${year}`), headers);
    const promptTrends = await yearTrend(api(`prompts/trends?${year}`), bare(`prompt-trends?${year}`), headers);
    console.log(
      JSON.stringify({
        answers,
        rows,
        seedSeconds: round(seedSeconds, 1),
        rebuild: readsOnly ? 'skipped (BENCH_READS_ONLY)' : { seconds: round(rebuildSeconds, 1), answersPerSecond: round(answers / rebuildSeconds), byProjection: rebuild },
        citationSourcesTop90: top,
        citationSourcesAbsences90: absences,
        promptInsights90: insights,
        changes90: changes,
        citationTrends365: citationTrends,
        promptTrends365: promptTrends,
        goals: { rpsRatioAtLeast: 0.5, p99RatioAtMost: 1.5 },
      }),
    );
  });
}

/**
 * A year-trend read: one response of each side compared byte for byte (the bare server builds the
 * API's JSON from the same statements' rows, or it is not the same work), then a few requests one
 * at a time on the idle servers (median ms), then the load of `compare`.
 */
async function yearTrend(apiUrl: string, bareUrl: string, headers: Record<string, string>) {
  const [a, b] = [await (await fetch(apiUrl, { headers })).text(), await (await fetch(bareUrl)).text()];
  if (a !== b) {
    let at = 0;
    while (at < a.length && a[at] === b[at]) at++;
    throw new Error(`${apiUrl}: the bare server's JSON differs from the API's at character ${at}: ${JSON.stringify(a.slice(at, at + 80))} vs ${JSON.stringify(b.slice(at, at + 80))}`);
  }
  const single = { api: await oneAtATime(apiUrl, headers, 9), bare: await oneAtATime(bareUrl, {}, 9) };
  return { ...(await compare(apiUrl, bareUrl, headers, SECONDS)), singleMs: single.api.medianMs, baselineSingleMs: single.bare.medianMs, bytes: a.length };
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
