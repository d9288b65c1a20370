import { createConfigReader, redact, type ConfigSection, type ConfigVariable } from './config-section';

export { redact } from './config-section';

/**
 * The service's configuration, read from environment variables once at start-up and validated:
 * every bad value is reported at once, one line each, naming the variable. The core (below) is
 * what every process needs; each concern declares its own section beside it (`*.config.ts`).
 */
export interface AppConfig {
  port: number;
  host: string;
  /** Fastify's trustProxy: whether (or which) proxies' X-Forwarded-For to believe for the client address. */
  trustProxy: boolean | number | string;
  databaseUrl: string;
  databasePoolSize: number;
  redisUrl: string;
  /**
   * REDIS_CLUSTER_NODES: seed nodes of a Redis Cluster (`host:port`, or `redis://[user:password@]host:port`);
   * when set, every Redis connection of the service (keys, pub/sub, BullMQ) is a cluster client and REDIS_URL is not used.
   */
  redisClusterNodes: readonly string[] | null;
  /** DATABASE_READ_URL: a streaming replica for lag-tolerant reads (analytics, dashboard, MCP); null: they read the primary. */
  databaseReadUrl: string | null;
  /** Prefix of every Redis key and BullMQ queue of this deployment (tests use their own). */
  redisPrefix: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** `json` lines, `pretty` (short, human, coloured), or `auto`: pretty on a terminal, JSON otherwise. */
  logFormat: 'auto' | 'json' | 'pretty';
  /** How long shutdown waits for in-flight requests and batches. */
  shutdownTimeoutMs: number;
  /** The most keys and array elements (all levels together) a JSON body may hold; more is refused before parsing. */
  bodyMaxKeys: number;
  /** The values of the concerns' sections, by section token (`sectionOf`, or `@InjectConfig` in Nest). */
  readonly sections: ReadonlyMap<symbol, unknown>;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** The core's variables, their defaults and meanings (the README's configuration table lists them with every section's). */
export const CORE_CONFIG_VARIABLES: ConfigVariable[] = [
  { name: 'PORT', default: '3000', description: 'HTTP port of the API' },
  { name: 'HOST', default: '0.0.0.0', description: 'Address the API listens on' },
  { name: 'TRUST_PROXY', default: 'false', description: 'Believe X-Forwarded-For: false, true, a number of proxy hops, or a comma list of proxy addresses/CIDRs' },
  { name: 'DATABASE_URL', default: 'postgres://postgres@127.0.0.1:5432/ai_visibility', description: 'PostgreSQL (read models, checkpoints, and the default event store)' },
  { name: 'DATABASE_READ_URL', default: '(none)', description: 'A PostgreSQL streaming replica for lag-tolerant reads (analytics, dashboard, MCP); unset: every read goes to DATABASE_URL' },
  { name: 'DATABASE_POOL_SIZE', default: '20', description: 'Connections per pool' },
  { name: 'REDIS_URL', default: 'redis://127.0.0.1:6379', description: 'Redis (rate limits, queues, caches)' },
  { name: 'REDIS_CLUSTER_NODES', default: '(none)', description: 'Seed nodes of a Redis Cluster (comma list of host:port or redis:// URLs); when set, replaces REDIS_URL for every connection' },
  { name: 'REDIS_PREFIX', default: 'aov', description: 'Prefix of every Redis key and queue of this deployment' },
  { name: 'LOG_LEVEL', default: 'info', description: 'fatal, error, warn, info, debug, trace or silent' },
  { name: 'LOG_FORMAT', default: 'auto', description: 'json, pretty, or auto: pretty (short, human) when stdout is a terminal, JSON lines otherwise' },
  { name: 'SHUTDOWN_TIMEOUT_MS', default: '10000', description: 'Grace period for in-flight requests and batches on SIGTERM' },
  { name: 'BODY_MAX_KEYS', default: '1000', description: 'Most keys and array elements (all levels together) a JSON request body may hold; a larger body is refused (400) before it is parsed' },
];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const SOURCES = new WeakMap<AppConfig, Readonly<Record<string, string>>>();

/**
 * The variables a configuration was loaded from (those the service reads, as they were set), for a
 * thread of the process that loads its own (`loadConfig(configSource(config), sections)`); null for
 * a configuration not made by `loadConfig`.
 */
export function configSource(config: AppConfig): Readonly<Record<string, string>> | null {
  return SOURCES.get(config) ?? null;
}

/**
 * Reads and validates the core and every given section in one pass; throws a ConfigError listing
 * every problem (ordered as the variables are declared) when any value is bad.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, sections: readonly ConfigSection<unknown>[] = []): AppConfig {
  const problems: string[] = [];
  const variables = configVariables(sections);
  const r = createConfigReader(env, variables, problems);
  const redisPrefix = r.raw('REDIS_PREFIX');
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(redisPrefix)) r.problem('REDIS_PREFIX', `"${redisPrefix}" must be 1-64 letters, digits, '_', '.' or '-'`);
  const values = new Map<symbol, unknown>();
  const config: AppConfig = {
    port: r.int('PORT', 0, 65535),
    host: r.raw('HOST'),
    trustProxy: trustProxy(r.raw('TRUST_PROXY'), problems),
    databaseUrl: r.url('DATABASE_URL', ['postgres:', 'postgresql:']),
    databasePoolSize: r.int('DATABASE_POOL_SIZE', 1, 1000),
    redisUrl: r.url('REDIS_URL', ['redis:', 'rediss:']),
    redisClusterNodes: parseRedisClusterNodes(r.optional('REDIS_CLUSTER_NODES'), problems),
    databaseReadUrl: r.optional('DATABASE_READ_URL') === null ? null : r.url('DATABASE_READ_URL', ['postgres:', 'postgresql:']),
    redisPrefix,
    logLevel: r.oneOf('LOG_LEVEL', LOG_LEVELS),
    logFormat: r.oneOf('LOG_FORMAT', ['auto', 'json', 'pretty'] as const),
    shutdownTimeoutMs: r.int('SHUTDOWN_TIMEOUT_MS', 0, 600_000),
    bodyMaxKeys: r.int('BODY_MAX_KEYS', 1, 1_000_000),
    sections: values,
  };
  for (const section of sections) values.set(section.token, section.read(r));
  SOURCES.set(config, Object.fromEntries(variables.flatMap((v) => (env[v.name] === undefined ? [] : [[v.name, env[v.name]!]]))));
  if (problems.length) {
    const order = (p: string) => variables.findIndex((v) => p.startsWith(`${v.name}:`));
    throw new ConfigError(problems.sort((a, b) => order(a) - order(b)));
  }
  return config;
}

/** Every variable of the core and the sections, in declaration order (the README's table). */
export function configVariables(sections: readonly ConfigSection<unknown>[] = []): ConfigVariable[] {
  return [...CORE_CONFIG_VARIABLES, ...sections.flatMap((s) => s.variables)];
}

/** A section's value from a loaded configuration (outside Nest: the CLI, benchmarks, tests). */
export function sectionOf<T>(config: Pick<AppConfig, 'sections'>, section: ConfigSection<T>): T {
  if (!config.sections.has(section.token)) throw new Error(`configuration section "${section.name}" was not loaded`);
  return config.sections.get(section.token) as T;
}

/** REDIS_CLUSTER_NODES: "10.0.0.1:6379,10.0.0.2:6379" or redis:// URLs (credentials allowed), normalised to URLs. */
export function parseRedisClusterNodes(text: string | null, problems: string[]): string[] | null {
  if (text === null || !text.trim()) return null;
  const nodes: string[] = [];
  for (const item of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const url = /^rediss?:\/\//.test(item) ? item : `redis://${item}`;
    try {
      const u = new URL(url);
      if (!u.hostname || !u.port) throw new Error('no port');
      nodes.push(url);
    } catch {
      problems.push(`REDIS_CLUSTER_NODES: "${redact(item)}" is not host:port or a redis:// URL with a port`);
    }
  }
  return nodes;
}

/** TRUST_PROXY: false | true | hops | "10.0.0.1,10.1.0.0/16". */
function trustProxy(text: string, problems: string[]): boolean | number | string {
  const v = text.toLowerCase();
  if (v === 'false' || v === '0') return false;
  if (v === 'true') return true;
  if (/^[1-9][0-9]?$/.test(v)) return Number(v);
  if (/^[0-9a-f:./, ]+$/i.test(v)) return text;
  problems.push(`TRUST_PROXY: "${text}" is not false, true, a number of hops or a list of addresses`);
  return false;
}

/** "host:port" of a connection string, for error messages. */
export function addressOf(connectionString: string): string {
  try {
    const u = new URL(connectionString);
    return `${u.hostname}:${u.port || (u.protocol.startsWith('redis') ? '6379' : '5432')}`;
  } catch {
    return redact(connectionString);
  }
}
