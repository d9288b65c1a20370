import { Client } from 'pg';
import { runMigrations } from '@libs/database';
import { ALL_MIGRATIONS } from '../../apps/composition/migrations';

const ADMIN_URL = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * A fresh, migrated database for one benchmark run, dropped afterwards. With BENCH_KEEP_DATABASE=1
 * the database is named `aov_bench_<name>_kept`, reused if it exists and never dropped, so that a
 * benchmark with a long seed can be re-measured (each benchmark says what it reuses).
 */
export async function withBenchDatabase<T>(name: string, fn: (url: string, reused: boolean) => Promise<T>): Promise<T> {
  const keep = process.env.BENCH_KEEP_DATABASE === '1';
  const db = keep ? `aov_bench_${name}_kept` : `aov_bench_${name}_${process.pid}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [db])).rowCount === 1;
  if (!keep || !exists) {
    await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${db}`);
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${db}`;
  try {
    await runMigrations(url.toString(), ALL_MIGRATIONS);
    return await fn(url.toString(), keep && exists);
  } finally {
    if (!keep) await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export const round = (n: number, digits = 0) => Math.round(n * 10 ** digits) / 10 ** digits;
