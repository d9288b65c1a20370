/**
 * The service's configuration, read from environment variables once at start-up and validated:
 * every bad value is reported at once, one line each, naming the variable.
 */
export interface AppConfig {
  port: number;
  host: string;
  databaseUrl: string;
  databasePoolSize: number;
  redisUrl: string;
  /** Prefix of every Redis key and BullMQ queue of this deployment (tests use their own). */
  redisPrefix: string;
  eventStore: 'postgres' | 'eventstoredb';
  eventStoreUrl: string | null;
  webhookAllowPrivateUrls: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** How often a subscription polls when no notification arrives. */
  projectionPollMs: number;
  projectionBatchSize: number;
  /** How long shutdown waits for in-flight requests and batches. */
  shutdownTimeoutMs: number;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export interface ConfigVariable {
  name: string;
  default: string;
  description: string;
}

/** Every variable, its default and meaning (the README's configuration table lists the same). */
export const CONFIG_VARIABLES: ConfigVariable[] = [
  { name: 'PORT', default: '3000', description: 'HTTP port of the API' },
  { name: 'HOST', default: '0.0.0.0', description: 'Address the API listens on' },
  { name: 'DATABASE_URL', default: 'postgres://postgres@127.0.0.1:5432/ai_visibility', description: 'PostgreSQL (read models, checkpoints, and the default event store)' },
  { name: 'DATABASE_POOL_SIZE', default: '20', description: 'Connections per pool' },
  { name: 'REDIS_URL', default: 'redis://127.0.0.1:6379', description: 'Redis (rate limits, queues, caches)' },
  { name: 'REDIS_PREFIX', default: 'aov', description: 'Prefix of every Redis key and queue of this deployment' },
  { name: 'EVENT_STORE', default: 'postgres', description: '`postgres` or `eventstoredb`' },
  { name: 'EVENTSTORE_URL', default: '(none)', description: 'EventStoreDB connection string (esdb://…), required when EVENT_STORE=eventstoredb' },
  { name: 'WEBHOOK_ALLOW_PRIVATE_URLS', default: 'false', description: 'Allow webhook URLs on loopback/private addresses (local development and tests only)' },
  { name: 'LOG_LEVEL', default: 'info', description: 'fatal, error, warn, info, debug, trace or silent' },
  { name: 'PROJECTION_POLL_MS', default: '500', description: 'Poll interval of subscriptions when no notification arrives' },
  { name: 'PROJECTION_BATCH_SIZE', default: '1000', description: 'Events per projection transaction' },
  { name: 'SHUTDOWN_TIMEOUT_MS', default: '10000', description: 'Grace period for in-flight requests and batches on SIGTERM' },
];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const problems: string[] = [];
  const raw = (name: string): string => {
    const v = env[name];
    if (v !== undefined && v.trim() !== '') return v.trim();
    return CONFIG_VARIABLES.find((c) => c.name === name)?.default ?? '';
  };
  const int = (name: string, min: number, max: number): number => {
    const v = raw(name);
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
      problems.push(`${name}: "${v}" is not an integer from ${min} to ${max}`);
      return min;
    }
    return Number(v);
  };
  const url = (name: string, protocols: string[]): string => {
    const v = raw(name);
    try {
      const u = new URL(v);
      if (!protocols.includes(u.protocol)) {
        problems.push(`${name}: "${redact(v)}" must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
      }
    } catch {
      problems.push(`${name}: "${redact(v)}" is not a URL`);
    }
    return v;
  };
  const bool = (name: string): boolean => {
    const v = raw(name).toLowerCase();
    if (['true', '1', 'yes'].includes(v)) return true;
    if (['false', '0', 'no'].includes(v)) return false;
    problems.push(`${name}: "${v}" is not a boolean (true or false)`);
    return false;
  };
  const oneOf = <T extends string>(name: string, values: readonly T[]): T => {
    const v = raw(name) as T;
    if (!values.includes(v)) problems.push(`${name}: "${v}" is not one of ${values.join(', ')}`);
    return v;
  };

  const eventStore = oneOf('EVENT_STORE', ['postgres', 'eventstoredb'] as const);
  const esUrlRaw = env.EVENTSTORE_URL?.trim() || null;
  if (esUrlRaw !== null) url('EVENTSTORE_URL', ['esdb:', 'esdb+discover:']);
  else if (eventStore === 'eventstoredb') problems.push('EVENTSTORE_URL: required when EVENT_STORE=eventstoredb (e.g. esdb://127.0.0.1:2113?tls=false)');

  const redisPrefix = raw('REDIS_PREFIX');
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(redisPrefix)) problems.push(`REDIS_PREFIX: "${redisPrefix}" must be 1-64 letters, digits, '_', '.' or '-'`);

  const config: AppConfig = {
    port: int('PORT', 0, 65535),
    host: raw('HOST'),
    databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
    databasePoolSize: int('DATABASE_POOL_SIZE', 1, 1000),
    redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
    redisPrefix,
    eventStore,
    eventStoreUrl: esUrlRaw,
    webhookAllowPrivateUrls: bool('WEBHOOK_ALLOW_PRIVATE_URLS'),
    logLevel: oneOf('LOG_LEVEL', LOG_LEVELS),
    projectionPollMs: int('PROJECTION_POLL_MS', 10, 600_000),
    projectionBatchSize: int('PROJECTION_BATCH_SIZE', 1, 100_000),
    shutdownTimeoutMs: int('SHUTDOWN_TIMEOUT_MS', 0, 600_000),
  };
  if (problems.length) {
    const order = (p: string) => CONFIG_VARIABLES.findIndex((v) => p.startsWith(`${v.name}:`));
    throw new ConfigError(problems.sort((a, b) => order(a) - order(b)));
  }
  return config;
}

/** Hides a password in a connection string before it is printed. */
export function redact(connectionString: string): string {
  return connectionString.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@');
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
