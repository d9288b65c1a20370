import { relative, resolve } from 'node:path';
import { addressOf, redact, sectionOf, type AppConfig } from '@libs/config';
import { postgresProblem, redisProblem } from '@libs/observability';
import { EmbeddedPostgres } from './embedded-postgres';
import { LocalRedis } from './local-redis';
import { LOCAL_SERVICES_CONFIG } from './local-services.config';
import { SharedServer } from './shared-server';

/** How this process came to use a server of its own, for the banner. */
const HOW = { started: 'started', shared: 'shared with the process that started it', adopted: 'left running by a process that ended; stopped by this one' } as const;

/** The PostgreSQL and Redis a process runs with, and the ones it started for itself. */
export interface LocalServices {
  /** DATABASE_URL and REDIS_URL as decided: load the configuration again with them. */
  readonly env: { DATABASE_URL: string; REDIS_URL: string };
  /** What each is, one line each, for the banner. */
  readonly database: string;
  readonly redis: string;
  /** Done with them: stops what this process started (or adopted) unless another process still uses it. */
  release(): Promise<void>;
}

/**
 * For `npm start` and the CLI: DATABASE_URL and REDIS_URL when they are set; otherwise (with
 * LOCAL_SERVICES=auto) the checkout's own server when one is running, else the server answering
 * at the variable's default address, and when none answers, one of its own: an embedded
 * PostgreSQL in `<DATA_DIR>/postgres`, a redis-server from the PATH. `config` is the
 * configuration loaded from `env`.
 */
export async function provideLocalServices(env: NodeJS.ProcessEnv, config: AppConfig, log: (line: string) => void = () => undefined): Promise<LocalServices> {
  const { mode, dataDir } = sectionOf(config, LOCAL_SERVICES_CONFIG);
  const dir = resolve(dataDir);
  const inside = relative(process.cwd(), dir);
  const shown = inside === '' ? '.' : inside.startsWith('..') ? dir : inside;
  const set = (name: string) => (env[name] ?? '').trim() !== '';
  const held: SharedServer[] = [];
  const release = async () => {
    for (const server of held.reverse()) await server.release().catch(() => undefined);
    held.length = 0;
  };

  try {
    // Servers of this checkout already running (a running `npm start`'s, or ones a killed run
    // left) come first: the CLI then uses what the service uses, whatever else answers.
    let databaseUrl = config.databaseUrl;
    let database = redact(databaseUrl);
    if (!set('DATABASE_URL') && mode !== 'never') {
      const pg = new EmbeddedPostgres(dir);
      const running = (await pg.running()) !== null;
      const refused = mode === 'auto' && !running ? await postgresRefusal(databaseUrl) : null;
      if (mode === 'always' || running || refused !== null) {
        if (!running) log(`${refused ? `nothing answers at ${addressOf(databaseUrl)} (${refused}): ` : ''}starting the embedded PostgreSQL in ${shown}/postgres…`);
        const server = new SharedServer(pg);
        const how = await server.acquire();
        held.push(server);
        databaseUrl = pg.url(new URL(config.databaseUrl).pathname.slice(1) || 'ai_visibility');
        database = `embedded PostgreSQL ${pg.version} in ${shown}/postgres (${how === 'started' && pg.initialised ? 'initialised and started' : HOW[how]}), ${redact(databaseUrl)}`;
      }
    }

    let redisUrl = config.redisUrl;
    let redis = redact(redisUrl);
    if (!set('REDIS_URL') && !set('REDIS_CLUSTER_NODES') && mode !== 'never') {
      const running = (await new LocalRedis(dir, '').running()) !== null;
      const silent = mode === 'auto' && !running ? await redisProblem(redisUrl, 2000) : null;
      if (mode === 'always' || running || silent !== null) {
        const local = new LocalRedis(dir, silent ? `nothing answers at ${addressOf(redisUrl)} (${silent})` : 'it is not set (LOCAL_SERVICES=always)');
        const server = new SharedServer(local);
        const how = await server.acquire();
        held.push(server);
        redisUrl = local.url();
        redis = `redis-server ${local.version} on 127.0.0.1:${new URL(redisUrl).port} (${HOW[how]}; nothing kept on disk)`;
      }
    }
    return { env: { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl }, database, redis, release };
  } catch (error) {
    await release();
    throw error;
  }
}

/** Why PostgreSQL at this address cannot be used (asked of its maintenance database), or null when it can. */
function postgresRefusal(url: string): Promise<string | null> {
  const u = new URL(url);
  u.pathname = '/postgres';
  return postgresProblem(u.toString(), 3000);
}
