import 'reflect-metadata';
import { Pool } from 'pg';
import { ProjectionRebuilder } from '@libs/projection-engine';
import { AnswerFactsReads, answerFactsSql, DEFAULT_THRESHOLDS, detectAll, seriesFromRows } from '@libs/detectors';
import { answerFactsProjector } from '@projections';
import { percentile, round } from './support/bench-database';
import { HISTORY_SIZE, withAnswerHistory } from './support/answer-history';

/**
 * npm run bench:detectors — prints one JSON line. The answer history of the analytics benchmarks
 * (BENCH_BRANDS × BENCH_PROMPTS prompts × 4 providers × BENCH_DAYS days, written through the event
 * store; the detectors' read model, answer_facts, rebuilt from it), then every detector over each brand as after a
 * run (the latest recentAnswers + baselineAnswers answers of each prompt × provider read, all seven
 * detectors run): per brand (median, p95, max), all brands, and the 1,000-brand time projected
 * from the per-brand mean (one process, and four worker processes each with a core of its own and
 * the database keeping up, which this 2-core machine cannot show). The same SQL on a bare pg pool is the baseline: the read's share of a
 * brand's time and the service read against the bare statement. BENCH_KEEP_DATABASE=1 keeps the
 * seeded history (and its facts) for the next run of the same size. The issue's size is
 * BENCH_PROMPTS=500 BENCH_DAYS=365 (goals: a brand under 0.3 s, 1,000 brands under 5 minutes on four workers).
 */
const REPEAT = Number(process.env.BENCH_DETECTOR_REPEAT ?? 3);

async function main(): Promise<void> {
  await withAnswerHistory('detectors', async ({ url, ds, store, organizationId, brands, answers, seedSeconds, reused }) => {
    // A kept database (BENCH_KEEP_DATABASE=1) keeps its facts too (the migrations bring them to the current shape); BENCH_REBUILD=1 rebuilds them anyway.
    const built = reused && process.env.BENCH_REBUILD !== '1' && (await ds.query(`SELECT EXISTS (SELECT 1 FROM answer_facts) AS e`))[0].e === true;
    const r0 = performance.now();
    if (!built) await new ProjectionRebuilder(ds, store, 5000).rebuild(answerFactsProjector);
    const rebuildSeconds = built ? null : (performance.now() - r0) / 1000;
    await ds.query('VACUUM ANALYZE answer_facts');

    const t = DEFAULT_THRESHOLDS;
    const reads = new AnswerFactsReads(ds);
    const bare = new Pool({ connectionString: url, max: 2 });
    const brandMs: number[] = [];
    const readMs: number[] = [];
    const bareMs: number[] = [];
    let detections = 0;
    let seriesCount = 0;
    const all0 = performance.now();
    for (let round_ = 0; round_ < REPEAT; round_++) {
      for (const brand of brands) {
        const filter = { organizationId, brandId: brand.id, since: new Date(Date.now() - 90 * 86_400_000), perSeries: t.recentAnswers + t.baselineAnswers };
        const b0 = performance.now();
        const series = await reads.series(filter);
        const b1 = performance.now();
        const found = detectAll({ organizationId, brandId: brand.id, brandName: brand.name, series, runIds: null, openFingerprints: new Set(), thresholds: t });
        brandMs.push(performance.now() - b0);
        readMs.push(b1 - b0);
        if (round_ === 0) {
          detections += found.length;
          seriesCount += series.length;
        }
        const sql = answerFactsSql(filter);
        const s0 = performance.now();
        seriesFromRows((await bare.query(sql.text, sql.params)).rows);
        bareMs.push(performance.now() - s0);
      }
    }
    const allSeconds = (performance.now() - all0) / 1000 / REPEAT;
    await bare.end();
    const sorted = [...brandMs].sort((a, b) => a - b);
    const mean = brandMs.reduce((a, x) => a + x, 0) / brandMs.length;
    const meanRead = readMs.reduce((a, x) => a + x, 0) / readMs.length;
    const meanBare = bareMs.reduce((a, x) => a + x, 0) / bareMs.length;
    console.log(
      JSON.stringify({
        size: { ...HISTORY_SIZE, answers, seriesPerBrand: round(seriesCount / brands.length, 1) },
        seedSeconds: round(seedSeconds, 1),
        reusedDatabase: reused,
        readModelRebuildSeconds: rebuildSeconds === null ? null : round(rebuildSeconds, 1),
        perBrandMs: { median: round(percentile(sorted, 50), 1), p95: round(percentile(sorted, 95), 1), max: round(sorted[sorted.length - 1], 1), mean: round(mean, 1) },
        readMs: { service: round(meanRead, 1), bareSql: round(meanBare, 1), ratio: round(meanRead / meanBare, 2) },
        detectMs: round(mean - meanRead, 1),
        detections,
        allBrands: { brands: brands.length, seconds: round(allSeconds, 2), projectedSecondsFor1000: round((mean / 1000) * 1000, 1), projectedSecondsFor1000OnFourWorkers: round((mean / 1000) * 1000 / 4, 1) },
        goals: { perBrandMsAtMost: 300, secondsFor1000AtMost: 300, fullSize: 'BENCH_PROMPTS=500 BENCH_DAYS=365' },
      }),
    );
  });
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
