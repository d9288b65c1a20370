import { Client } from 'pg';
import { Redis } from 'ioredis';
import { addressOf, type AppConfig } from '@libs/config';

/** A dependency the process cannot start without is unreachable: one line naming the setting and address. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

export async function checkPostgres(config: Pick<AppConfig, 'databaseUrl'>): Promise<void> {
  const client = new Client({ connectionString: config.databaseUrl, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    throw new StartupError(`DATABASE_URL: cannot reach PostgreSQL at ${addressOf(config.databaseUrl)} (${describe(error)})`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function checkRedis(config: Pick<AppConfig, 'redisUrl'>): Promise<void> {
  const redis = new Redis(config.redisUrl, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  let cause: unknown = null;
  redis.on('error', (error: unknown) => (cause ??= error));
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new StartupError(`REDIS_URL: cannot reach Redis at ${addressOf(config.redisUrl)} (${describe(cause ?? error)})`);
  } finally {
    redis.disconnect();
  }
}

function describe(error: unknown): string {
  const e = error as { code?: string; message?: string; errors?: { code?: string }[] };
  return e.code ?? e.errors?.[0]?.code ?? e.message ?? String(error);
}
