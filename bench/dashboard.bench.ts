import 'reflect-metadata';
import { launchChromium } from '../test/support/browser';
import { startDemoServer } from '../test/support/dashboard-demo';
import { dashboardAssets } from '../apps/dashboard/server/serve-dashboard';
import { shippedBytes } from '../apps/dashboard/server/dashboard-assets';
import { percentile, round } from './support/bench-database';

/**
 * npm run bench:dashboard — prints one JSON line:
 * - the demo `npm start` seeds (two brands, 90 days of answers, the closed loop, 320 opportunities)
 *   in a fresh database, served by the API with the worker;
 * - in Debian's Chromium (the browser specs' one), signed in once, BENCH_RUNS (10) navigations to
 *   the overview of the last 30 days after BENCH_WARMUP (2): milliseconds from the navigation's
 *   start to its share-of-voice chart drawn by uPlot (every figure of the page is then shown):
 *   median and worst (goal: median at most 1,000 ms);
 * - the JavaScript and CSS shipped, raw and gzipped (goal: at most 150 KB of JavaScript gzipped).
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);

async function main(): Promise<void> {
  const t0 = performance.now();
  const demo = await startDemoServer();
  const seedSeconds = (performance.now() - t0) / 1000;
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    const brand = demo.seeded.brands[0].id;
    const url = `${demo.base}/app/brands/${brand}/overview`;
    await page.goto(`${demo.base}/app`);
    await page.getByLabel('API key').fill(demo.seeded.keys[0].key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/overview/);
    const times: number[] = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const start = performance.now();
      await page.goto(url);
      await page.locator('.plot[data-drawn="true"]').waitFor({ timeout: 30_000 });
      await page.locator('[data-figure="mentionRate"] [data-value]').waitFor();
      if (i >= WARMUP) times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const bytes = shippedBytes(await dashboardAssets());
    const medianMs = round(percentile(times, 50));
    process.stdout.write(
      JSON.stringify({
        bench: 'dashboard',
        browser: `chromium ${browser.version()}`,
        runs: RUNS,
        navigationToChartsMs: { median: medianMs, worst: round(times[times.length - 1]), best: round(times[0]) },
        goalMs: 1000,
        metGoalMs: medianMs <= 1000,
        jsBytes: bytes.jsBytes,
        jsGzipBytes: bytes.jsGzipBytes,
        cssGzipBytes: bytes.cssGzipBytes,
        goalJsGzipBytes: 150 * 1024,
        metGoalBytes: bytes.jsGzipBytes <= 150 * 1024,
        demo: { answers: demo.seeded.answers, opportunities: demo.seeded.opportunities, seedSeconds: round(seedSeconds, 1) },
      }) + '\n',
    );
  } finally {
    await browser.close();
    await demo.close();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
