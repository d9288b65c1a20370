import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { freePort } from '@libs/local-services';
import { round } from './bench-database';
import { spawnScript } from './spawn-script';

/**
 * Two distinct loopback ports nobody listens on now (the system picks them): a benchmark's API and
 * bare server, so that benchmarks run side by side on one machine never probe, load or measure
 * each other's servers.
 */
export async function serverPorts(): Promise<{ api: number; baseline: number }> {
  const api = await freePort();
  let baseline = await freePort();
  while (baseline === api) baseline = await freePort();
  return { api, baseline };
}

/** Starts a server script as a child process and resolves once `probeUrl` answers 2xx (60 s at most). */
export function startServer(script: string, env: Record<string, string>, probeUrl: string): Promise<ChildProcess> {
  const child = spawnScript(script, env, ['ignore', 'pipe', 'pipe']);
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start: ${err}`)), 60_000);
    const check = async () => {
      try {
        if ((await fetch(probeUrl)).ok) {
          clearTimeout(timer);
          return resolve(child);
        }
      } catch {
        /* not yet */
      }
      setTimeout(check, 200);
    };
    void check();
    child.once('exit', (code) => reject(new Error(`${script} exited ${code}: ${err}`)));
  });
}

/**
 * `seconds` of load at 50 connections; any non-2xx or error fails the benchmark. autocannon ends a
 * round by closing its connections, but the server still works through the requests it had taken
 * (their statements queued on its pool): one more request, answered after them (the pool's queue
 * is first in, first out), tells that the server is idle again, so the next round (the other
 * side's, or this side's again) is not slowed by this one's leftovers.
 */
export async function load(url: string, headers: Record<string, string>, seconds: number) {
  const r = await autocannon({ url, connections: 50, duration: seconds, headers });
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  await drain(url, headers);
  return { rps: r.requests.average, p99: r.latency.p99, p50: r.latency.p50 };
}

/** One request, waited for (two minutes at most): the server has worked through what it had taken before it. */
async function drain(url: string, headers: Record<string, string>): Promise<void> {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(120_000) });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url}: ${response.status} after the round`);
}

/**
 * The API against the bare server on the same statement: both warmed (JIT, each pooled connection's
 * prepared statement), then two rounds each of `seconds / 2`, alternating so neither side benefits
 * from going second. Mean requests/s and the worst round's p99 of each side.
 */
export async function alternate(apiUrl: string, baselineUrl: string, headers: Record<string, string>, seconds: number) {
  await load(apiUrl, headers, 2);
  await load(baselineUrl, {}, 2);
  const api = [];
  const baseline = [];
  for (let round = 0; round < 2; round++) {
    api.push(await load(apiUrl, headers, seconds / 2));
    baseline.push(await load(baselineUrl, {}, seconds / 2));
  }
  const mean = (runs: { rps: number }[]) => runs.reduce((a, r) => a + r.rps, 0) / runs.length;
  const worst = (runs: { p99: number }[]) => Math.max(...runs.map((r) => r.p99));
  return { apiRps: mean(api), baselineRps: mean(baseline), apiP99Ms: worst(api), baselineP99Ms: worst(baseline) };
}

/** The API's and the bare server's figures on one read (see `alternate`), with their ratios. */
export async function compare(apiUrl: string, baselineUrl: string, headers: Record<string, string>, seconds: number) {
  const r = await alternate(apiUrl, baselineUrl, headers, seconds);
  return {
    apiRps: round(r.apiRps),
    baselineRps: round(r.baselineRps),
    rpsRatio: round(r.apiRps / r.baselineRps, 2),
    apiP99Ms: r.apiP99Ms,
    baselineP99Ms: r.baselineP99Ms,
    p99Ratio: round(r.apiP99Ms / Math.max(1, r.baselineP99Ms), 2),
  };
}

/** One request at a time, `n` times after a warm-up: the median and the slowest wall time in ms (what one user waits on a quiet server). */
export async function oneAtATime(url: string, headers: Record<string, string>, n = 20): Promise<{ medianMs: number; maxMs: number }> {
  await drain(url, headers);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await drain(url, headers);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { medianMs: round(times[Math.floor(n / 2)], 1), maxMs: round(times[n - 1], 1) };
}
