import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { addDays, utcDay } from '@libs/metrics';
import { startDemoServer } from '../test/support/dashboard-demo';
import { percentile, round } from './support/bench-database';

/**
 * npm run bench:mcp — prints one JSON line: the MCP tool `visibility_summary` against the REST
 * reads it wraps, on the demo `npm start` seeds (fresh database, API with the worker, held still).
 *
 * One answer of visibility_summary holds what five REST reads hold (GET /aeo/metrics,
 * /geo/metrics, /sentiment/summary, /visibility/sov, /brand-index/latest, the same brand and 30
 * days): the REST unit is those five requests sent together, its latency the slowest of them.
 * BENCH_CONCURRENCY (8) loops each send one unit after another for BENCH_SECONDS (10) per phase,
 * REST and MCP alternating twice after a warm-up of each; MCP through the official client SDK,
 * connected once (stateless: every call is one HTTP POST). Rate limits are lifted for the run.
 * Goal: MCP calls per second at least 0.8x REST units per second, p99 at most 1.5x.
 */
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const UNLIMITED = JSON.stringify(Object.fromEntries(['free', 'standard', 'professional', 'enterprise'].map((t) => [t, { perMinute: 10_000_000, perDay: 1_000_000_000, burst: 1_000_000 }])));

interface Phase {
  done: number;
  latencies: number[];
}

async function phase(seconds: number, once: () => Promise<void>): Promise<Phase> {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        await once();
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { done: latencies.length, latencies };
}

async function main(): Promise<void> {
  const demo = await startDemoServer({ env: { RATE_LIMIT_TIERS: UNLIMITED, LOG_LEVEL: 'silent' } });
  const key = demo.seeded.keys[0].key;
  const brandId = demo.seeded.brands[0].id;
  const end = utcDay(Date.now());
  const start = addDays(end, -29);
  const q = `brandId=${brandId}&startDate=${start}&endDate=${end}`;
  const paths = [`/aeo/metrics?${q}`, `/geo/metrics?${q}`, `/sentiment/summary?${q}`, `/visibility/sov?${q}&limit=200`, `/brand-index/latest?brandId=${brandId}`];
  const restUnit = async () => {
    const answers = await Promise.all(paths.map((p) => fetch(`${demo.base}/api/v1${p}`, { headers: { 'x-api-key': key } })));
    for (const r of answers) {
      if (r.status !== 200) throw new Error(`REST ${r.status}`);
      await r.arrayBuffer();
    }
  };
  const clients = await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      const c = new Client({ name: 'bench', version: '1.0.0' });
      await c.connect(new StreamableHTTPClientTransport(new URL(`${demo.base}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
      return c;
    }),
  );
  let next = 0;
  const mcpCall = async () => {
    const r = await clients[next++ % clients.length].callTool({ name: 'visibility_summary', arguments: { brandId, startDate: start, endDate: end } });
    if (r.isError) throw new Error(`MCP ${JSON.stringify(r.content)}`);
  };
  try {
    await phase(2, restUnit);
    await phase(2, mcpCall);
    const rest: Phase[] = [];
    const mcp: Phase[] = [];
    for (let i = 0; i < 2; i++) {
      rest.push(await phase(SECONDS, restUnit));
      mcp.push(await phase(SECONDS, mcpCall));
    }
    const summary = (phases: Phase[]) => {
      const all = phases.flatMap((p) => p.latencies).sort((a, b) => a - b);
      return { perSecond: round(all.length / (SECONDS * phases.length), 1), p50Ms: round(percentile(all, 50)), p99Ms: round(percentile(all, 99)), count: all.length };
    };
    const r = summary(rest);
    const m = summary(mcp);
    const throughputRatio = round(m.perSecond / r.perSecond, 2);
    const p99Ratio = round(m.p99Ms / r.p99Ms, 2);
    process.stdout.write(
      JSON.stringify({
        bench: 'mcp',
        tool: 'visibility_summary',
        rest: { unit: paths.map((p) => `GET /api/v1${p.split('?')[0]}`), ...r },
        mcp: { transport: 'streamable-http, stateless, official client SDK', ...m },
        concurrency: CONCURRENCY,
        secondsPerPhase: SECONDS,
        throughputRatio,
        p99Ratio,
        goal: { throughputRatio: 0.8, p99Ratio: 1.5 },
        metGoal: throughputRatio >= 0.8 && p99Ratio <= 1.5,
        demo: { answers: demo.seeded.answers },
      }) + '\n',
    );
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await demo.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
