import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { AnswerHistorySeeder, PROVIDERS, RunRequests, TrackedPromptsRepository } from '@libs/analysis';
import { createDataSource } from '@libs/database';
import { EventSchemaRegistry, PostgresEventStore } from '@libs/event-store';
import { TenancyRepository } from '@libs/tenancy';
import { PROJECTOR_GROUPS } from '@projections';
import { startFakeProviders, type FakeProviders } from '../test/support/fake-providers';
import { round, withBenchDatabase } from './support/bench-database';
import { spawnScript } from './support/spawn-script';

/**
 * npm run bench:scale (issue 34 part 6) — prints one JSON line: for the single process (`npm
 * start`'s API + worker in one process) and for 1, 2 and 3 worker processes, each on a fresh
 * database of the local PostgreSQL and the local Redis, in one run:
 * - answers: one run of BENCH_SCALE_PROMPTS (250) prompts x 4 providers against the providers'
 *   local fakes (200 ms each, 25 in flight per provider across every process): answers per second
 *   from the request until every answer is recorded, analysed and projected;
 * - catchUp: the processes stopped, BENCH_SCALE_SEED (20,000) more answers written, every read
 *   model's checkpoint set back to zero and its tables emptied, the processes started again:
 *   events per second from the first batch until every projector has reached the newest event;
 * - cpuSeconds of each phase: the service's processes, this database's PostgreSQL backends, the
 *   whole machine's busy time and what two cores could give over the phase's wall time, which say
 *   what bounds it here (on a shared machine, mostly the others' load).
 */
const PROMPTS = Number(process.env.BENCH_SCALE_PROMPTS ?? 250);
const SEED = Number(process.env.BENCH_SCALE_SEED ?? 20_000);
const LATENCY_MS = 200;
const CONCURRENCY = 25;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const READ_MODELS = Object.entries(PROJECTOR_GROUPS).filter(([group]) => group !== 'webhooks').flatMap(([, list]) => list);

/** CPU seconds (user + system) a process has used so far, from /proc (its own, not its children's). */
function cpuOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds of the PostgreSQL backends serving this database (the shared server serves others
 * too): pid → seconds, read from /proc for the pids pg_stat_activity names. Pools keep their
 * connections, so a phase's difference is what its backends spent.
 */
async function backendsCpu(ds: DataSource): Promise<Map<number, number>> {
  const rows: { pid: number }[] = await ds.query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`);
  return new Map(rows.map((r) => [r.pid, cpuOf(r.pid)]));
}

/** CPU seconds the whole machine spent (every core, busy time) so far, from /proc/stat. */
function machineCpu(): number {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const idle = fields[3] + fields[4];
  return (fields.slice(0, 8).reduce((a, b) => a + b, 0) - idle) / 100;
}

type Layout = { name: string; processes: number; standalone: boolean };
const LAYOUTS: Layout[] = [
  { name: 'singleProcess', processes: 1, standalone: true },
  { name: 'workers1', processes: 1, standalone: false },
  { name: 'workers2', processes: 2, standalone: false },
  { name: 'workers3', processes: 3, standalone: false },
];

async function head(ds: DataSource): Promise<{ tx: string; gp: string }> {
  const [last]: { tx: string; gp: string }[] = await ds.query(`SELECT transaction_id::text AS tx, global_position::text AS gp FROM events ORDER BY transaction_id DESC, global_position DESC LIMIT 1`);
  return last;
}

/** Whether every read model's checkpoint (every shard's, with issue 34 part 2's `name#k/S`) is at `at`. */
async function caughtUp(ds: DataSource, at: { tx: string; gp: string }): Promise<boolean> {
  const names = READ_MODELS.map((p) => p.name);
  const [r]: { behind: number; seen: number }[] = await ds.query(
    `SELECT count(*) FILTER (WHERE (commit_position, prepare_position) < ($2::numeric, $3::numeric))::int AS behind, count(DISTINCT split_part(name, '#', 1))::int AS seen
       FROM projection_checkpoints WHERE split_part(name, '#', 1) = ANY($1::text[])`,
    [names, at.tx, at.gp],
  );
  return r.behind === 0 && r.seen === names.length;
}

async function measure(layout: Layout, fakes: FakeProviders): Promise<Record<string, unknown>> {
  return withBenchDatabase(`scale_${layout.name.toLowerCase()}`, async (url) => {
    const ds = await createDataSource(url, 4).initialize();
    const store = new PostgresEventStore({ pool: new Pool({ connectionString: url, max: 4 }), ownsPool: true, connectionString: url, registry: new EventSchemaRegistry() });
    const env: Record<string, string> = {
      DATABASE_URL: url,
      REDIS_PREFIX: `bench_${process.pid}_${randomUUID().slice(0, 6)}`,
      LOG_LEVEL: 'warn',
      PORT: '0',
      HOST: '127.0.0.1',
      PROJECTION_POLL_MS: '50',
      ANALYSIS_SCHEDULER_POLL_MS: '86400000',
      ANSWER_TIMEOUT_MS: '10000',
      DATABASE_POOL_SIZE: '10',
    };
    for (const [p, fake] of [['OPENAI', fakes.openai], ['ANTHROPIC', fakes.anthropic], ['GEMINI', fakes.gemini], ['PERPLEXITY', fakes.perplexity]] as const) {
      Object.assign(env, { [`${p}_API_KEY`]: 'bench', [`${p}_BASE_URL`]: fake.baseUrl, [`${p}_CONCURRENCY`]: String(CONCURRENCY), [`${p}_REQUESTS_PER_MINUTE`]: '1000000' });
    }
    let children: ChildProcess[] = [];
    const start = () => {
      children = Array.from({ length: layout.processes }, () => spawnScript(layout.standalone ? 'apps/standalone/src/main.ts' : 'apps/worker/src/main.ts', env, ['ignore', 'ignore', 'inherit']));
    };
    const stop = async () => {
      for (const c of children) c.kill('SIGTERM');
      await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once('exit', r)) : null)));
    };
    type Cpu = { service: number; backends: Map<number, number>; machine: number; at: number };
    const cpu = async (): Promise<Cpu> => ({ service: children.reduce((s, c) => s + cpuOf(c.pid!), 0), backends: await backendsCpu(ds), machine: machineCpu(), at: performance.now() });
    /** CPU seconds of the service's processes and of this database's PostgreSQL backends, and the share of the machine's busy time they were. */
    const spent = async (from: Cpu) => {
      const now = await cpu();
      let postgres = 0;
      for (const [pid, seconds] of now.backends) postgres += seconds - (from.backends.get(pid) ?? 0);
      const service = now.service - from.service;
      const wall = (now.at - from.at) / 1000;
      return {
        service: round(service, 1),
        postgres: round(postgres, 1),
        machineBusy: round(now.machine - from.machine, 1),
        available: round(wall * cpus().length, 1),
      };
    };
    try {
      const tenancy = new TenancyRepository(ds);
      // An organisation first: the single process then seeds no demo.
      const org = await tenancy.createOrganization('Bench', 'enterprise');
      const brand = await tenancy.createBrand({ organizationId: org.id, name: 'Acme', domain: 'acme.com', competitors: [{ name: 'Globex', domain: 'globex.com' }, { name: 'Initech', domain: 'initech.io' }] });
      start();
      // The processes start (queues, projector groups) before timing.
      for (;;) {
        const [{ n }]: { n: number }[] = await ds.query(`SELECT count(*)::int AS n FROM projection_checkpoints WHERE owner IS NOT NULL`);
        if (n > 0) break;
        await sleep(200);
      }
      await sleep(2000);

      // 1. Answers end to end.
      const c0 = await cpu();
      const t0 = performance.now();
      const run = await new RunRequests(ds, store).request({ organizationId: org.id, brandId: brand.id, trigger: 'api', questions: Array.from({ length: PROMPTS }, (_, k) => ({ promptId: null, query: `best tool for job ${k}`, providers: PROVIDERS })) });
      const expected = PROMPTS * PROVIDERS.length;
      for (;;) {
        const [r]: { status: string }[] = await ds.query('SELECT status FROM analysis_runs WHERE id = $1', [run.runId]);
        const [{ e }]: { e: number }[] = await ds.query('SELECT count(DISTINCT result_id)::int AS e FROM answer_entities WHERE run_id = $1', [run.runId]);
        if (r?.status === 'completed' && e === expected) break;
        if (performance.now() - t0 > 300_000) throw new Error(`run not done after 300 s (${r?.status}, ${e} projected)`);
        await sleep(50);
      }
      const answerSeconds = (performance.now() - t0) / 1000;
      const answerCpu = await spent(c0);
      const owners = (await ds.query(`SELECT count(DISTINCT split_part(owner, ':', 2))::int AS n FROM projection_checkpoints WHERE owner IS NOT NULL`))[0].n as number;
      await stop();

      // 2. Catch-up of every read model over the seeded history.
      const prompts = new TrackedPromptsRepository(ds);
      const added = [];
      for (let k = 0; k < 20; k++) {
        const r = await prompts.add(brand, { query: `seeded question ${k}`, topic: null, tags: [], providers: [...PROVIDERS], isActive: false });
        if ('prompt' in r) added.push(r.prompt);
      }
      await new AnswerHistorySeeder(ds, store).seed({ organizationId: org.id, tracked: { brand, competitors: brand.competitors }, prompts: added, days: Math.ceil(SEED / (added.length * PROVIDERS.length)), lastDay: new Date() });
      const names = READ_MODELS.map((p) => p.name);
      await ds.query(`UPDATE projection_checkpoints SET commit_position = 0, prepare_position = 0, events_applied = 0 WHERE split_part(name, '#', 1) = ANY($1::text[])`, [names]);
      await ds.query(`TRUNCATE ${[...new Set(READ_MODELS.flatMap((p) => p.tables))].join(', ')}`);
      const [{ events }]: { events: number }[] = await ds.query(`SELECT count(*)::int AS events FROM events`);
      const at = await head(ds);
      start();
      const s0 = performance.now();
      let firstBatch: number | null = null;
      let c1 = await cpu();
      while (!(await caughtUp(ds, at))) {
        if (firstBatch === null) {
          const [{ moved }]: { moved: boolean }[] = await ds.query(`SELECT bool_or(commit_position > 0) AS moved FROM projection_checkpoints WHERE split_part(name, '#', 1) = ANY($1::text[])`, [names]);
          if (moved) {
            firstBatch = performance.now();
            c1 = await cpu();
          }
        }
        if (performance.now() - s0 > 600_000) throw new Error('not caught up after 600 s');
        await sleep(50);
      }
      const end = performance.now();
      const catchCpu = await spent(c1);
      await stop();
      const catchSeconds = (end - (firstBatch ?? s0)) / 1000;
      return {
        processes: layout.processes,
        answers: { answers: expected, seconds: round(answerSeconds, 2), perSecond: round(expected / answerSeconds, 1), cpuSeconds: answerCpu, workersOwningProjectors: owners },
        catchUp: { events, readModels: names.length, seconds: round(catchSeconds, 2), withStartSeconds: round((end - s0) / 1000, 2), eventsPerSecond: round(events / catchSeconds), cpuSeconds: catchCpu },
      };
    } finally {
      await stop();
      await store.close();
      await ds.destroy();
    }
  });
}

async function main(): Promise<void> {
  const fakes = await startFakeProviders();
  for (const f of [fakes.openai, fakes.anthropic, fakes.gemini, fakes.perplexity]) f.setLatency(LATENCY_MS);
  try {
    const results: Record<string, unknown> = {};
    const load = [loadavg()[0]];
    for (const layout of LAYOUTS) {
      results[layout.name] = await measure(layout, fakes);
      load.push(loadavg()[0]);
    }
    console.log(JSON.stringify({ prompts: PROMPTS, providers: PROVIDERS.length, providerLatencyMs: LATENCY_MS, seededAnswers: SEED, ...results, cores: cpus().length, loadAverage: { min: round(Math.min(...load), 1), max: round(Math.max(...load), 1) } }));
  } finally {
    await fakes.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
