import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { runMigrations } from '@libs/database';
import { ALL_MIGRATIONS } from '../../apps/composition/migrations';

export const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database for one test file; `drop()` removes it. */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const name = `aov_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  if (options.migrate !== false) await runMigrations(url.toString(), ALL_MIGRATIONS);
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new Client({ connectionString: ADMIN_URL });
      await c.connect();
      try {
        // A pool's end() resolves before its connections have closed; give them a moment to go, so
        // FORCE does not terminate a connection whose client would then raise an unhandled error.
        for (let waited = 0; waited < 2000; waited += 20) {
          const [{ n }] = (await c.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name])).rows;
          if (n === 0) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** A Redis key prefix of its own for one test file. */
export function testRedisPrefix(): string {
  return `aov_test_${process.pid}_${randomBytes(4).toString('hex')}`;
}
