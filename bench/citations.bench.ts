import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { addDays } from '@libs/metrics';
import { ProjectionRebuilder } from '@libs/projection-engine';
import { CITATION_PROJECTORS } from '@projections';
import { round } from './support/bench-database';
import { serverEnv, withAnswerHistory } from './support/answer-history';
import { compare, startServer } from './support/http-load';

/**
 * npm run bench:citations — prints one JSON line:
 * - the visibility benchmark's answers (bench/support/answer-history: BENCH_BRANDS (20) brands ×
 *   BENCH_PROMPTS (10) prompts × 4 providers × BENCH_DAYS (365) days × BENCH_RUNS_PER_DAY (1);
 *   BENCH_RUNS_PER_DAY=7 is the 2,044,000 answers) written through the event store, then
 *   the five citation read models rebuilt from it: answers/s, seconds each, rows;
 * - citation-sources/top?range=90, citation-sources/absences (90 days), prompts/insights and
 *   changes (90 days) at 50 connections against a bare Fastify + pg server running the same SQL,
 *   alternating, in the same run (BENCH_SECONDS each): requests/s and p99 of each side, and ratios.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const TABLES = ['citation_records', 'citation_sources', 'prompt_answers', 'answer_changes', 'change_answer_states', 'prompt_discoveries'];

async function main(): Promise<void> {
  await withAnswerHistory('citations', async ({ url, ds, store, organizationId, key, brands, answers, yesterday, seedSeconds, children }) => {
    const rebuild: Record<string, number> = {};
    const r0 = performance.now();
    for (const projector of CITATION_PROJECTORS) {
      const p0 = performance.now();
      await new ProjectionRebuilder(ds, store, 5000).rebuild(projector);
      rebuild[projector.name] = round((performance.now() - p0) / 1000, 1);
    }
    const rebuildSeconds = (performance.now() - r0) / 1000;
    const rows: Record<string, number> = {};
    for (const t of TABLES) {
      await ds.query(`VACUUM ANALYZE ${t}`);
      rows[t] = (await ds.query(`SELECT count(*)::int AS n FROM ${t}`))[0].n;
    }

    const env = serverEnv(url, `bench_${process.pid}_${randomUUID().slice(0, 6)}`);
    const brandId = brands[0].id;
    children.push(await startServer('apps/api/src/main.ts', { ...env, PORT: '3831', HOST: '127.0.0.1' }, 'http://127.0.0.1:3831/health'));
    children.push(await startServer('bench/support/citations-baseline-server.ts', { ...env, BASELINE_PORT: '3832', BASELINE_ORG: String(organizationId) }, `http://127.0.0.1:3832/changes?brandId=${brandId}&startDate=${yesterday}&endDate=${yesterday}`));
    const headers = { 'x-api-key': key };
    const period = `brandId=${brandId}&startDate=${addDays(yesterday, -89)}&endDate=${yesterday}`;
    const api = (path: string) => `http://127.0.0.1:3831/api/v1/${path}`;
    const bare = (path: string) => `http://127.0.0.1:3832/${path}`;
    const top = await compare(api(`citation-sources/top?brandId=${brandId}&range=90`), bare(`top?brandId=${brandId}&range=90`), headers, SECONDS);
    const absences = await compare(api(`citation-sources/absences?brandId=${brandId}&range=90&minScore=0`), bare(`absences?brandId=${brandId}&range=90`), headers, SECONDS);
    const insights = await compare(api(`prompts/insights?${period}`), bare(`insights?${period}`), headers, SECONDS);
    const changes = await compare(api(`changes?${period}`), bare(`changes?${period}`), headers, SECONDS);
    console.log(
      JSON.stringify({
        answers,
        rows,
        seedSeconds: round(seedSeconds, 1),
        rebuild: { seconds: round(rebuildSeconds, 1), answersPerSecond: round(answers / rebuildSeconds), byProjection: rebuild },
        citationSourcesTop90: top,
        citationSourcesAbsences90: absences,
        promptInsights90: insights,
        changes90: changes,
        goals: { rpsRatioAtLeast: 0.5, p99RatioAtMost: 1.5 },
      }),
    );
  });
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
