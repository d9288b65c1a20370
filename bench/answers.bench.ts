import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { Pool } from 'pg';
import { AnswerHistorySeeder, JudgeSettingsRepository, PROVIDERS, RunRequests, TrackedPromptsRepository } from '@libs/analysis';
import { createDataSource } from '@libs/database';
import { EventSchemaRegistry, PostgresEventStore } from '@libs/event-store';
import { projectionsReached } from '@libs/projection-engine';
import { TenancyRepository, type Brand, type Competitor } from '@libs/tenancy';
import type { DataSource } from 'typeorm';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { ALL_PROJECTORS, ANALYSIS_PROJECTORS } from '@projections';
import { defaultAnswer, startFakeProviders } from '../test/support/fake-providers';
import { round, withBenchDatabase } from './support/bench-database';
import { spawnScript } from './support/spawn-script';

/**
 * npm run bench:answers — prints one JSON line:
 * - run: 250 prompts x 4 providers against local fake providers answering in 200 ms, 25 in flight
 *   per provider, one worker process: seconds from the request until the run is completed and
 *   every answer analysed and projected, beside the ideal (1,000 x 0.2 s / 100 in flight = 2 s)
 *   and the bare floor (the same calls by a process doing nothing else, bench/support/fake-call-floor.ts);
 * - seed: BENCH_ANSWERS (default 100,000) recorded answers written through the event store by
 *   the history seeder while the worker projects them: answers/s end to end (from the first
 *   append until the projections have caught up), and the share of that time spent generating and
 *   analysing, appending, and projecting after the last append;
 * - judge: BENCH_JUDGE_PROMPTS (default 100) prompts x 4 providers asked twice, every fake answering
 *   at once, by an organisation with the sentiment judge off, then by one with it on (the fake OpenAI
 *   as judge, on the chatgpt queue): answers/s from the request until every answer is analysed (and,
 *   judge on, its judge-labelled analysis projected), and the share of the judged run's time that
 *   judging added ((on - off) / on);
 * - bare: the same seed in a database of its own, appended with no worker running (append only),
 *   then projected by a worker started on it with nothing appending (project only);
 * - the worker's peak resident memory (VmHWM; the larger of the two workers), against 512 MB.
 * BENCH_ONLY=run prints the run section alone (with the worker's peak memory during it).
 */
const ANSWERS = Number(process.env.BENCH_ANSWERS ?? 100_000);
const LATENCY_MS = 200;
const CONCURRENCY = 25;
const RUN_PROMPTS = 250;
const WORKER_HEAP_MB = Number(process.env.BENCH_WORKER_HEAP_MB ?? 256);
const JUDGE_PROMPTS = Number(process.env.BENCH_JUDGE_PROMPTS ?? 100);
/** BENCH_ONLY=run: only the audit run (and its floor) is measured and printed: no judge, seed or bare sections. */
const RUN_ONLY = process.env.BENCH_ONLY === 'run';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rssMb: round(kb('VmRSS') / 1024), peakMb: round(kb('VmHWM') / 1024) };
}

/** The audit run's calls made by a process doing nothing else (bench/support/fake-call-floor.ts). */
async function fakeCallFloor(env: Record<string, string>): Promise<{ answers: number; seconds: number }> {
  const child = spawnScript('bench/support/fake-call-floor.ts', env, ['ignore', 'pipe', 'inherit']);
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`fake-call floor exited with ${code}`);
  return JSON.parse(out.trim().split('\n').pop()!) as { answers: number; seconds: number };
}

interface BareSeed {
  answers: number;
  /** The seed appended with no worker running (generate, analyse, append). */
  appendSeconds: number;
  appendMs: number;
  /** A worker started on the appended feed: from its analysis projections' first checkpoint until they reach the head. */
  projectSeconds: number;
  peakMb: number;
}

/** The seed of the end-to-end section (ANSWERS answers of 25 prompts) in a fresh database: appended with no worker, then projected by a worker with nothing appending. */
async function bareSeed(baseEnv: Record<string, string>, nodeArgs: string[]): Promise<BareSeed> {
  return withBenchDatabase('answers_bare', async (url) => {
    const ds = createDataSource(url, 4);
    await ds.initialize();
    const store = new PostgresEventStore({ pool: new Pool({ connectionString: url, max: 4 }), ownsPool: true, connectionString: url, registry: new EventSchemaRegistry() });
    let worker: ChildProcess | null = null;
    try {
      const tenancy = new TenancyRepository(ds);
      const org = await tenancy.createOrganization('Bench bare', 'enterprise');
      const brand = await tenancy.createBrand({ organizationId: org.id, name: 'Acme', domain: 'acme.com', competitors: [{ name: 'Globex', domain: 'globex.com' }, { name: 'Initech', domain: 'initech.io' }, { name: 'Hooli', domain: 'hooli.com' }] });
      const prompts = await seedPrompts(ds, brand);
      const days = Math.ceil(ANSWERS / (prompts.length * PROVIDERS.length));
      const a0 = performance.now();
      const seeded = await new AnswerHistorySeeder(ds, store).seed({ organizationId: org.id, tracked: { brand, competitors: brand.competitors }, prompts, days, lastDay: new Date() });
      const appendSeconds = (performance.now() - a0) / 1000;
      const head = await newestEvent(ds);
      const names = ANALYSIS_PROJECTORS.map((p) => p.name);
      worker = spawnScript('apps/worker/src/main.ts', { ...baseEnv, DATABASE_URL: url, REDIS_PREFIX: `${baseEnv.REDIS_PREFIX}_bare` }, ['ignore', 'ignore', 'inherit'], nodeArgs);
      let peakMb = 0;
      const sample = () => {
        try {
          peakMb = Math.max(peakMb, memoryOf(worker!.pid!).peakMb);
        } catch {
          /* exited */
        }
      };
      const sampler = setInterval(sample, 200);
      try {
        // The clock starts when the worker's analysis projections have their checkpoints (their runner holds the feed).
        const w0 = performance.now();
        for (;;) {
          const [{ n }]: { n: number }[] = await ds.query(`SELECT count(*)::int AS n FROM projection_checkpoints WHERE split_part(name, '#', 1) = ANY($1::text[])`, [names]);
          if (n >= names.length) break;
          if (performance.now() - w0 > 120_000) throw new Error('bare worker did not start its projections in 120 s');
          await sleep(10);
        }
        const p0 = performance.now();
        while (!(await projectionsReached(ds, names, head))) {
          if (performance.now() - p0 > 900_000) throw new Error('bare projections not caught up after 900 s');
          await sleep(50);
        }
        const projectSeconds = (performance.now() - p0) / 1000;
        sample();
        return { answers: seeded.answers, appendSeconds, appendMs: seeded.appendMs, projectSeconds, peakMb };
      } finally {
        clearInterval(sampler);
      }
    } finally {
      if (worker) {
        worker.kill('SIGTERM');
        await new Promise((r) => (worker!.exitCode !== null ? r(null) : worker!.once('exit', r)));
      }
      await store.close();
      await ds.destroy();
    }
  });
}

/** The 25 inactive tracked prompts the seeds write answers of. */
async function seedPrompts(ds: DataSource, brand: Brand & { competitors: Competitor[] }) {
  const prompts = new TrackedPromptsRepository(ds);
  const added = [];
  for (let k = 0; k < 25; k++) {
    const r = await prompts.add(brand, { query: `seeded question ${k}`, topic: null, tags: [], providers: [...PROVIDERS], country: null, language: null, isActive: false });
    if ('prompt' in r) added.push(r.prompt);
  }
  return added;
}

/** Waits until the worker has started: its answer queues have their workers and every projection unit its checkpoints. */
async function workerReady(ds: DataSource, redisPrefix: string): Promise<void> {
  const connection = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  const queues = PROVIDERS.map((p) => new Queue(`{answers-${p}}`, { connection, prefix: `${redisPrefix}:bull` }));
  const names = [...ALL_PROJECTORS.map((p) => p.name), 'answer-dispatch'];
  try {
    const w0 = performance.now();
    for (;;) {
      const counts = await Promise.all(queues.map((q) => q.getWorkersCount()));
      const [{ n }]: { n: number }[] = await ds.query(`SELECT count(*)::int AS n FROM projection_checkpoints WHERE name = ANY($1::text[])`, [names]);
      if (counts.every((c) => c > 0) && n >= names.length) return;
      if (performance.now() - w0 > 120_000) throw new Error('the worker did not start in 120 s');
      await sleep(50);
    }
  } finally {
    await Promise.all(queues.map((q) => q.close()));
    connection.disconnect();
  }
}

/** The newest event's position: what the projections must reach. */
async function newestEvent(ds: DataSource) {
  const [last]: { tx: string; gp: string }[] = await ds.query(`SELECT transaction_id::text AS tx, global_position::text AS gp FROM events ORDER BY transaction_id DESC, global_position DESC LIMIT 1`);
  return { commit: BigInt(last.tx), prepare: BigInt(last.gp) };
}

async function main(): Promise<void> {
  const fakes = await startFakeProviders();
  for (const f of [fakes.openai, fakes.anthropic, fakes.gemini, fakes.perplexity]) f.setLatency(LATENCY_MS);
  try {
    await withBenchDatabase('answers', async (url) => {
      const ds = createDataSource(url, 4);
      await ds.initialize();
      const pool = new Pool({ connectionString: url, max: 4 });
      const store = new PostgresEventStore({ pool, ownsPool: true, connectionString: url, registry: new EventSchemaRegistry() });
      const env: Record<string, string> = {
        DATABASE_URL: url,
        REDIS_PREFIX: `bench_${process.pid}_${randomUUID().slice(0, 6)}`,
        LOG_LEVEL: 'warn',
        PROJECTION_POLL_MS: '50',
        ANALYSIS_SCHEDULER_POLL_MS: '86400000',
        ANSWER_TIMEOUT_MS: '10000',
        OPENAI_API_KEY: 'bench',
        OPENAI_BASE_URL: fakes.openai.baseUrl,
        ANTHROPIC_API_KEY: 'bench',
        ANTHROPIC_BASE_URL: fakes.anthropic.baseUrl,
        GEMINI_API_KEY: 'bench',
        GEMINI_BASE_URL: fakes.gemini.baseUrl,
        PERPLEXITY_API_KEY: 'bench',
        PERPLEXITY_BASE_URL: fakes.perplexity.baseUrl,
        // The judge of the judge section (organisations turn it on; the others never ask it).
        SENTIMENT_JUDGE: 'openai',
        SENTIMENT_JUDGE_API_KEY: 'bench',
        SENTIMENT_JUDGE_BASE_URL: fakes.openai.baseUrl,
      };
      for (const p of ['OPENAI', 'ANTHROPIC', 'GEMINI', 'PERPLEXITY']) {
        env[`${p}_CONCURRENCY`] = String(CONCURRENCY);
        env[`${p}_REQUESTS_PER_MINUTE`] = '1000000';
      }
      // BENCH_PROFILE_DIR: the worker writes a CPU profile there (where its time goes).
      const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
      // The worker's V8 old-space budget, as docker-compose.yml gives it (WORKER_HEAP_MB there).
      const heap = [`--max-old-space-size=${WORKER_HEAP_MB}`];
      const worker: ChildProcess = spawnScript('apps/worker/src/main.ts', env, ['ignore', 'ignore', 'inherit'], [...heap, ...profile]);
      let peakMb = 0;
      const sampler = setInterval(() => {
        try {
          peakMb = Math.max(peakMb, memoryOf(worker.pid!).peakMb);
        } catch {
          /* exited */
        }
      }, 200);
      try {
        const tenancy = new TenancyRepository(ds);
        const org = await tenancy.createOrganization('Bench', 'enterprise');
        const brand = await tenancy.createBrand({ organizationId: org.id, name: 'Acme', domain: 'acme.com', competitors: [{ name: 'Globex', domain: 'globex.com' }, { name: 'Initech', domain: 'initech.io' }, { name: 'Hooli', domain: 'hooli.com' }] });
        // Let the worker start (its queues and projector groups) before timing: a loaded machine can take
        // longer than the fixed wait to compile and boot it, so its readiness is also waited for.
        await workerReady(ds, env.REDIS_PREFIX);
        await sleep(4000);

        // 1. One run of 250 prompts x 4 providers.
        const runs = new RunRequests(ds, store);
        const arrivalsBefore = [fakes.openai, fakes.anthropic, fakes.gemini, fakes.perplexity].map((f) => f.arrivals.length);
        const wall0 = Date.now();
        const t0 = performance.now();
        const run = await runs.request({ organizationId: org.id, brandId: brand.id, trigger: 'api', questions: Array.from({ length: RUN_PROMPTS }, (_, k) => ({ promptId: null, query: `best tool for job ${k}`, providers: PROVIDERS })) });
        const expected = RUN_PROMPTS * PROVIDERS.length;
        for (;;) {
          const [r]: { status: string }[] = await ds.query('SELECT status FROM analysis_runs WHERE id = $1', [run.runId]);
          const [{ n }]: { n: number }[] = await ds.query('SELECT count(*)::int AS n FROM analysis_results WHERE run_id = $1 AND analysed_at IS NOT NULL', [run.runId]);
          const [{ e }]: { e: number }[] = await ds.query('SELECT count(DISTINCT result_id)::int AS e FROM answer_entities WHERE run_id = $1', [run.runId]);
          if (r?.status === 'completed' && n === expected && e === expected) break;
          if (performance.now() - t0 > 600_000) throw new Error(`run not done after 600 s (${r?.status}, ${n} analysed)`);
          await sleep(20);
        }
        const runSeconds = (performance.now() - t0) / 1000;
        // Where the run's time went: from the request to the first and last recorded answer and to the run's end (event times).
        const [timeline]: { first: number; last: number; analysed: number; completed: number }[] = await ds.query(
          `SELECT extract(epoch FROM min(recorded_at) FILTER (WHERE type = 'answer.recorded') - r.at) AS first,
                  extract(epoch FROM max(recorded_at) FILTER (WHERE type = 'answer.recorded') - r.at) AS last,
                  extract(epoch FROM max(recorded_at) FILTER (WHERE type = 'answer.analysed') - r.at) AS analysed,
                  extract(epoch FROM max(recorded_at) FILTER (WHERE type = 'analysis_run.completed') - r.at) AS completed
             FROM events, (SELECT recorded_at AS at FROM events WHERE stream_id = $1 AND stream_position = 0) r
            WHERE stream_id = $1 OR stream_id LIKE $2 GROUP BY r.at`,
          [`analysis-run-${run.runId}`, `answer-${run.runId}-%`],
        );
        // When the worker's provider calls reached the fakes (the calls themselves, before any recording).
        const calls = [fakes.openai, fakes.anthropic, fakes.gemini, fakes.perplexity].flatMap((f, k) => f.arrivals.slice(arrivalsBefore[k])).map((at) => (at - wall0) / 1000);
        const idealSeconds = (expected * LATENCY_MS) / 1000 / (CONCURRENCY * PROVIDERS.length);
        // The run's bare floor: the same calls by a process doing nothing else (the worker idle meanwhile).
        const floor = await fakeCallFloor({ ...env, FLOOR_PROMPTS: String(RUN_PROMPTS) });
        const runSection = {
          answers: expected,
          providerLatencyMs: LATENCY_MS,
          concurrencyPerProvider: CONCURRENCY,
          seconds: round(runSeconds, 2),
          idealSeconds: round(idealSeconds, 2),
          ratio: round(runSeconds / idealSeconds, 2),
          goalRatio: 1.5,
          floorSeconds: round(floor.seconds, 2),
          ratioToFloor: round(runSeconds / floor.seconds, 2),
          floorToIdeal: round(floor.seconds / idealSeconds, 2),
          timeline: {
            firstCall: round(Math.min(...calls), 2),
            firstAnswer: round(Number(timeline.first), 2),
            lastCall: round(Math.max(...calls), 2),
            lastAnswer: round(Number(timeline.last), 2),
            lastAnalysed: round(Number(timeline.analysed), 2),
            completed: round(Number(timeline.completed), 2),
          },
        };
        if (RUN_ONLY) {
          clearInterval(sampler);
          peakMb = Math.max(peakMb, memoryOf(worker.pid!).peakMb);
          console.log(JSON.stringify({ run: runSection, worker: { peakRssMb: peakMb, goalMb: 512, heapBudgetMb: WORKER_HEAP_MB } }));
          return;
        }

        // 2. The same questions with the sentiment judge off, then on, every fake answering at once.
        // Each provider's answer its own text, so that no judge verdict is a cache hit of another provider's (one call per answer).
        for (const [name, f] of Object.entries({ openai: fakes.openai, anthropic: fakes.anthropic, gemini: fakes.gemini, perplexity: fakes.perplexity })) {
          f.setLatency(0);
          f.setAnswer((query) => ({ ...defaultAnswer(query), text: `${defaultAnswer(query).text} Asked of ${name}.` }));
        }
        const judgeExpected = JUDGE_PROMPTS * PROVIDERS.length;
        const timedRun = async (label: string, judged: boolean): Promise<{ seconds: number; answersPerSecond: number; lastOfflineAnalysed: number; lastJudged: number | null }> => {
          const o = await tenancy.createOrganization(`Bench judge ${label}`, 'enterprise');
          const b = await tenancy.createBrand({ organizationId: o.id, name: 'Acme', domain: 'acme.com', competitors: [{ name: 'Globex', domain: 'globex.com' }, { name: 'Initech', domain: 'initech.io' }, { name: 'Hooli', domain: 'hooli.com' }] });
          if (judged) await new JudgeSettingsRepository(ds).set(o.id, 'openai', null);
          const j0 = performance.now();
          const r = await runs.request({ organizationId: o.id, brandId: b.id, trigger: 'api', questions: Array.from({ length: JUDGE_PROMPTS }, (_, k) => ({ promptId: null, query: `judge bench ${label} ${k}`, providers: PROVIDERS })) });
          for (;;) {
            const [{ n }]: { n: number }[] = await ds.query('SELECT count(*)::int AS n FROM analysis_results WHERE run_id = $1 AND analysed_at IS NOT NULL', [r.runId]);
            const [{ j }]: { j: number }[] = await ds.query(`SELECT count(*)::int AS j FROM prompt_answers WHERE run_id = $1 AND brand_labeller LIKE 'judge:%'`, [r.runId]);
            if (n === judgeExpected && (!judged || j === judgeExpected)) break;
            if (performance.now() - j0 > 300_000) throw new Error(`judge ${label}: not done after 300 s (${n} analysed, ${j} judged)`);
            await sleep(20);
          }
          const seconds = (performance.now() - j0) / 1000;
          const [t]: { analysed: number; judged: number | null }[] = await ds.query(
            `SELECT extract(epoch FROM max(recorded_at) FILTER (WHERE type = 'answer.analysed' AND stream_position = 1) - r.at) AS analysed,
                    extract(epoch FROM max(recorded_at) FILTER (WHERE type = 'answer.judged') - r.at) AS judged
               FROM events, (SELECT recorded_at AS at FROM events WHERE stream_id = $1 AND stream_position = 0) r
              WHERE stream_id LIKE $2 GROUP BY r.at`,
            [`analysis-run-${r.runId}`, `answer-${r.runId}-%`],
          );
          return { seconds: round(seconds, 2), answersPerSecond: round(judgeExpected / seconds), lastOfflineAnalysed: round(Number(t.analysed), 2), lastJudged: t.judged === null ? null : round(Number(t.judged), 2) };
        };
        const judgeRequestsBefore = fakes.openai.requests.length;
        const judgeOff = await timedRun('off', false);
        const chatgptAnswers = fakes.openai.requests.length - judgeRequestsBefore;
        const judgeOn = await timedRun('on', true);
        const judgeCalls = fakes.openai.requests.length - judgeRequestsBefore - 2 * chatgptAnswers;
        for (const f of [fakes.openai, fakes.anthropic, fakes.gemini, fakes.perplexity]) {
          f.setLatency(LATENCY_MS);
          f.setAnswer(defaultAnswer);
        }

        // 3. A seed of ANSWERS answers through the event store while the worker projects them.
        const added = await seedPrompts(ds, brand);
        const days = Math.ceil(ANSWERS / (added.length * PROVIDERS.length));
        const seeder = new AnswerHistorySeeder(ds, store);
        const s0 = performance.now();
        const seeded = await seeder.seed({ organizationId: org.id, tracked: { brand, competitors: brand.competitors }, prompts: added, days, lastDay: new Date() });
        const seedSeconds = (performance.now() - s0) / 1000;
        const total = seeded.answers + expected;
        // Caught up: every analysis projection's checkpoint at the newest event (a cheap poll, not a count).
        const head = await newestEvent(ds);
        while (!(await projectionsReached(ds, ANALYSIS_PROJECTORS.map((p) => p.name), head))) {
          if (performance.now() - s0 > 900_000) throw new Error('projections not caught up after 900 s');
          await sleep(50);
        }
        const [{ n }]: { n: number }[] = await ds.query(`SELECT count(DISTINCT result_id)::int AS n FROM answer_entities WHERE brand_id = $1`, [brand.id]);
        if (n !== total) throw new Error(`projected ${n} answers of ${total}`);
        const endToEnd = (performance.now() - s0) / 1000;
        const tailSeconds = endToEnd - seedSeconds;
        clearInterval(sampler);
        peakMb = Math.max(peakMb, memoryOf(worker.pid!).peakMb);
        worker.kill('SIGTERM');
        await new Promise((r) => (worker.exitCode !== null ? r(null) : worker.once('exit', r)));

        // 4. The bare baselines, in a database of their own with no worker: the same seed appended alone, then projected alone.
        const bare = await bareSeed(env, [...heap, ...profile]);
        console.log(
          JSON.stringify({
            run: runSection,
            seed: {
              answers: seeded.answers,
              seconds: round(endToEnd, 2),
              answersPerSecond: round(seeded.answers / endToEnd),
              goalAnswersPerSecond: 5000,
              share: { generateAndAnalyse: round(seeded.analyseMs / 1000 / endToEnd, 3), append: round(seeded.appendMs / 1000 / endToEnd, 3), projectAfterLastAppend: round(tailSeconds / endToEnd, 3) },
              seedWriteSeconds: round(seedSeconds, 2),
            },
            bare: {
              answers: bare.answers,
              appendOnly: { seconds: round(bare.appendSeconds, 2), answersPerSecond: round(bare.answers / bare.appendSeconds), appendShare: round(bare.appendMs / 1000 / bare.appendSeconds, 3) },
              projectOnly: { seconds: round(bare.projectSeconds, 2), answersPerSecond: round(bare.answers / bare.projectSeconds), workerPeakRssMb: bare.peakMb },
              endToEndToSlowerBare: round(seeded.answers / endToEnd / Math.min(bare.answers / bare.appendSeconds, bare.answers / bare.projectSeconds), 2),
            },
            judge: {
              answers: judgeExpected,
              providerLatencyMs: 0,
              off: judgeOff,
              on: { ...judgeOn, judgeCalls },
              judgingShare: round((judgeOn.seconds - judgeOff.seconds) / judgeOn.seconds, 3),
            },
            worker: { peakRssMb: Math.max(peakMb, bare.peakMb), endToEndPeakRssMb: peakMb, goalMb: 512, heapBudgetMb: WORKER_HEAP_MB },
          }),
        );
      } finally {
        clearInterval(sampler);
        worker.kill('SIGTERM');
        await new Promise((r) => (worker.exitCode !== null ? r(null) : worker.once('exit', r)));
        await store.close();
        await ds.destroy();
      }
    });
  } finally {
    await fakes.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
