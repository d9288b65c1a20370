import type { ChildProcess } from 'node:child_process';
import { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { AnswerHistorySeeder, PROVIDERS, TrackedPromptsRepository } from '@libs/analysis';
import { ALL_SCOPES, ApiKeysRepository } from '@libs/auth';
import { createDataSource } from '@libs/database';
import { EventSchemaRegistry, PostgresEventStore, type EventStore } from '@libs/event-store';
import { addDays, utcDay } from '@libs/metrics';
import { TenancyRepository, type Brand, type Competitor } from '@libs/tenancy';
import { withBenchDatabase } from './bench-database';

/**
 * The size of the analytics benchmarks' answer history, from the environment: BENCH_BRANDS (20)
 * brands × BENCH_PROMPTS (10) prompts × 4 providers × BENCH_DAYS (365) days × BENCH_RUNS_PER_DAY
 * (1) runs a day; 7 runs a day gives the issues' full size (2,044,000 answers).
 */
export const HISTORY_SIZE = {
  brands: Number(process.env.BENCH_BRANDS ?? 20),
  prompts: Number(process.env.BENCH_PROMPTS ?? 10),
  days: Number(process.env.BENCH_DAYS ?? 365),
  runsPerDay: Number(process.env.BENCH_RUNS_PER_DAY ?? 1),
};

/**
 * The answers of the analytics benchmarks: `brands` brands (three competitors each) × `prompts`
 * tracked prompts × 4 providers × `days` days up to yesterday (`runsPerDay` runs a day), written
 * through the event store by the seeder `npm start` uses (recorded and analysed answers, their runs).
 */
export async function seedAnswerHistory(ds: DataSource, store: EventStore, organizationId: number, size: typeof HISTORY_SIZE): Promise<{ brands: (Brand & { competitors: Competitor[] })[]; answers: number; yesterday: string }> {
  const tenancy = new TenancyRepository(ds);
  const seeder = new AnswerHistorySeeder(ds, store);
  const prompts = new TrackedPromptsRepository(ds);
  const yesterday = addDays(utcDay(Date.now()), -1);
  const brands: (Brand & { competitors: Competitor[] })[] = [];
  let answers = 0;
  for (let b = 0; b < size.brands; b++) {
    const brand = await tenancy.createBrand({ organizationId, name: `Brand ${b}`, domain: `brand${b}.example`, competitors: [1, 2, 3].map((c) => ({ name: `Rival ${b}-${c}`, domain: `rival${b}-${c}.example` })) });
    brands.push(brand);
    const added = [];
    for (let k = 0; k < size.prompts; k++) {
      const r = await prompts.add(brand, { query: `question ${k} about brand ${b}`, topic: null, tags: [], providers: [...PROVIDERS], isActive: false });
      if ('prompt' in r) added.push(r.prompt);
    }
    answers += (await seeder.seed({ organizationId, tracked: { brand, competitors: brand.competitors }, prompts: added, days: size.days, runsPerDay: size.runsPerDay, lastDay: new Date(`${yesterday}T12:00:00Z`) })).answers;
  }
  return { brands, answers, yesterday };
}

/** What a benchmark over the answer history works with. */
export interface HistoryBench {
  url: string;
  ds: DataSource;
  store: EventStore;
  organizationId: number;
  /** An API key of the organisation holding every scope. */
  key: string;
  brands: (Brand & { competitors: Competitor[] })[];
  answers: number;
  yesterday: string;
  seedSeconds: number;
  /** A kept database's history (BENCH_KEEP_DATABASE=1), seeded by an earlier run. */
  reused: boolean;
  /** Servers the benchmark starts: stopped (SIGTERM) at the end. */
  children: ChildProcess[];
}

/**
 * A fresh database (`withBenchDatabase(name)`) with the answer history of HISTORY_SIZE seeded; closes everything afterwards.
 * With BENCH_KEEP_DATABASE=1 the database is kept per name and size (`aov_bench_<name>_b<brands>_p<prompts>_d<days>_r<runs>_kept`)
 * and a later run with the same size reuses its history instead of seeding again (`reused`; seedSeconds is then the
 * first run's). A kept database whose seed did not finish is refused (drop it).
 */
export async function withAnswerHistory(name: string, fn: (bench: HistoryBench) => Promise<void>): Promise<void> {
  const sized = `${name}_b${HISTORY_SIZE.brands}_p${HISTORY_SIZE.prompts}_d${HISTORY_SIZE.days}_r${HISTORY_SIZE.runsPerDay}`;
  await withBenchDatabase(sized, async (url, reused) => {
    const ds = createDataSource(url, 4);
    await ds.initialize();
    const store = new PostgresEventStore({ pool: new Pool({ connectionString: url, max: 4 }), ownsPool: true, connectionString: url, registry: new EventSchemaRegistry() });
    const children: ChildProcess[] = [];
    try {
      const seeded = reused ? await keptHistory(ds) : await seedKept(ds, store);
      await fn({ url, ds, store, ...seeded, children });
    } finally {
      for (const c of children) c.kill('SIGTERM');
      await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
      await store.close();
      await ds.destroy();
    }
  });
}

type Seeded = Pick<HistoryBench, 'organizationId' | 'key' | 'brands' | 'answers' | 'yesterday' | 'seedSeconds' | 'reused'>;

/** Seeds the history and notes it in `bench_answer_history` (what a kept database's next run reads back). */
async function seedKept(ds: DataSource, store: EventStore): Promise<Seeded> {
  const org = await new TenancyRepository(ds).createOrganization('Bench', 'enterprise');
  const key = (await new ApiKeysRepository(ds).create({ organizationId: org.id, scopes: [...ALL_SCOPES] })).key;
  const s0 = performance.now();
  const seeded = await seedAnswerHistory(ds, store, org.id, HISTORY_SIZE);
  const seedSeconds = (performance.now() - s0) / 1000;
  await ds.query(`CREATE TABLE IF NOT EXISTS bench_answer_history (organization_id bigint, key text, answers integer, yesterday text, seed_seconds double precision)`);
  await ds.query(`INSERT INTO bench_answer_history VALUES ($1, $2, $3, $4, $5)`, [org.id, key, seeded.answers, seeded.yesterday, seedSeconds]);
  return { organizationId: org.id, key, ...seeded, seedSeconds, reused: false };
}

/** The history a kept database already holds. */
async function keptHistory(ds: DataSource): Promise<Seeded> {
  const done = (await ds.query(`SELECT to_regclass('bench_answer_history') AS t`))[0].t !== null;
  const rows: { organization_id: string; key: string; answers: number; yesterday: string; seed_seconds: number }[] = done ? await ds.query(`SELECT * FROM bench_answer_history`) : [];
  if (!rows.length) throw new Error(`the kept benchmark database was not seeded to the end: drop it (DROP DATABASE ...) and run again`);
  const organizationId = Number(rows[0].organization_id);
  const tenancy = new TenancyRepository(ds);
  const brands = await Promise.all(
    (await tenancy.listBrands({ organizationId, clientId: null })).map(async (b) => ({ ...b, competitors: await tenancy.competitorsOfBrand(b) })),
  );
  return { organizationId, key: rows[0].key, brands, answers: rows[0].answers, yesterday: rows[0].yesterday, seedSeconds: rows[0].seed_seconds, reused: true };
}

/** The environment of the API and baseline servers a benchmark starts: its database, its own Redis prefix, quiet logs, no rate limit in the way. */
export function serverEnv(url: string, prefix: string): Record<string, string> {
  return { DATABASE_URL: url, REDIS_PREFIX: prefix, LOG_LEVEL: 'warn', RATE_LIMIT_TIERS: JSON.stringify({ enterprise: { perMinute: 1_000_000_000, perDay: 1_000_000_000_000, burst: 1_000_000 } }) };
}
