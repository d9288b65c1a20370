import { Client } from 'pg';
import { connectRedis, type RedisTarget } from '@libs/redis';
import { addressOf, type AppConfig } from '@libs/config';

/** A dependency the process cannot start without is unreachable: one line naming the setting and address. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

export async function checkPostgres(config: Pick<AppConfig, 'databaseUrl'>): Promise<void> {
  const problem = await postgresProblem(config.databaseUrl);
  if (problem) throw new StartupError(`DATABASE_URL: cannot reach PostgreSQL at ${addressOf(config.databaseUrl)} (${problem})`);
}

export async function checkRedis(config: Pick<AppConfig, 'redisUrl'> & Partial<Pick<AppConfig, 'redisClusterNodes'>>): Promise<void> {
  const problem = await redisProblem(config);
  if (problem && config.redisClusterNodes?.length) throw new StartupError(`REDIS_CLUSTER_NODES: cannot reach the Redis Cluster at ${config.redisClusterNodes.map(addressOf).join(', ')} (${problem})`);
  if (problem) throw new StartupError(`REDIS_URL: cannot reach Redis at ${addressOf(config.redisUrl)} (${problem})`);
}

/** Why PostgreSQL at this connection string cannot be used (an error code, e.g. ECONNREFUSED, or message), or null when it answers. */
export async function postgresProblem(connectionString: string, timeoutMs = 5000): Promise<string | null> {
  const client = new Client({ connectionString, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return describe(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Why Redis at this URL cannot be used, or null when it answers PING. */
export async function redisProblem(target: string | RedisTarget, timeoutMs = 3000): Promise<string | null> {
  const redis = connectRedis(typeof target === 'string' ? { redisUrl: target } : target, { lazyConnect: true, connectTimeout: timeoutMs, maxRetriesPerRequest: 0, retryStrategy: () => null });
  let cause: unknown = null;
  redis.on('error', (error: unknown) => (cause ??= error));
  try {
    await redis.connect();
    await redis.ping();
    return null;
  } catch (error) {
    return describe(cause ?? error);
  } finally {
    redis.disconnect();
  }
}

function describe(error: unknown): string {
  const e = error as { code?: string; message?: string; errors?: { code?: string }[] };
  return e.code ?? e.errors?.[0]?.code ?? e.message ?? String(error);
}
