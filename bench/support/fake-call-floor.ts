import 'reflect-metadata';
import { ANALYSIS_CONFIG, Engines, PROVIDERS } from '@libs/analysis';
import { loadConfig, sectionOf } from '@libs/config';

/**
 * The audit run's bare floor (bench:answers): a process doing nothing but the run's provider calls,
 * through the worker's own engines (the providers' SDKs, configured from the same environment),
 * FLOOR_PROMPTS prompts x 4 providers with each provider's configured concurrency in flight, and
 * no queue, database or analysis. Prints one JSON line: {"answers", "seconds"}.
 */
async function main(): Promise<void> {
  const config = sectionOf(loadConfig(process.env, [ANALYSIS_CONFIG]), ANALYSIS_CONFIG);
  const engines = new Engines(config);
  const prompts = Number(process.env.FLOOR_PROMPTS ?? 250);
  const entities = [{ kind: 'brand' as const, name: 'Acme', domains: ['acme.com'] }];
  // One warm-up call per provider (the SDKs load and connect), as the worker has made calls before the run.
  await Promise.all(PROVIDERS.map((p) => engines.for(p).ask({ query: 'warm up', askedAt: new Date(), entities })));
  const t0 = performance.now();
  await Promise.all(
    PROVIDERS.map(async (p) => {
      let next = 0;
      const lane = async () => {
        while (next < prompts) {
          const k = next++;
          await engines.for(p).ask({ query: `best tool for job ${k}`, askedAt: new Date(), entities });
        }
      };
      await Promise.all(Array.from({ length: config.providers[p].concurrency }, lane));
    }),
  );
  console.log(JSON.stringify({ answers: prompts * PROVIDERS.length, seconds: (performance.now() - t0) / 1000 }));
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
