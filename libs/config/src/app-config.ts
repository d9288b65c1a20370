/**
 * The service's configuration, read from environment variables once at start-up and validated:
 * every bad value is reported at once, one line each, naming the variable.
 */
export interface AppConfig {
  port: number;
  host: string;
  /** Fastify's trustProxy: whether (or which) proxies' X-Forwarded-For to believe for the client address. */
  trustProxy: boolean | number | string;
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
  /** Per-tier overrides of the rate limits (RATE_LIMIT_TIERS), merged over the contract's table. */
  rateLimitTiers: Record<string, Partial<Record<'perMinute' | 'perDay' | 'burst', number>>>;
  /** Failed authentications a client address may make per minute before it gets 429. */
  authFailuresPerMinute: number;
  /** How often the in-memory usage counters are written to PostgreSQL. */
  usageFlushMs: number;
  /** Webhook retry delays after each failed attempt (its length + 1 = attempts in all). */
  webhookRetryScheduleMs: number[];
  webhookTimeoutMs: number;
  webhookConcurrency: number;
  webhookRelayPollMs: number;
  webhookReconcileMs: number;
  /** A subscription with nothing but failures for this long is deactivated. */
  webhookDisableAfterMs: number;
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
  { name: 'TRUST_PROXY', default: 'false', description: 'Believe X-Forwarded-For: false, true, a number of proxy hops, or a comma list of proxy addresses/CIDRs' },
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
  { name: 'RATE_LIMIT_TIERS', default: '{}', description: 'JSON overrides of the tier limits, e.g. {"free":{"perDay":100}} (perMinute, perDay, burst)' },
  { name: 'AUTH_FAILURES_PER_MINUTE', default: '20', description: 'Failed authentications per client address per minute before 429' },
  { name: 'USAGE_FLUSH_MS', default: '1000', description: 'How often API usage counters are written to PostgreSQL' },
  { name: 'WEBHOOK_RETRY_SCHEDULE_MS', default: '5000,300000,1800000,7200000,18000000,36000000,36000000', description: 'Delays (ms, comma list) before each webhook retry' },
  { name: 'WEBHOOK_TIMEOUT_MS', default: '15000', description: 'Timeout of one webhook delivery attempt' },
  { name: 'WEBHOOK_CONCURRENCY', default: '50', description: 'Webhook deliveries in flight per worker process' },
  { name: 'WEBHOOK_RELAY_POLL_MS', default: '1000', description: 'How often the outbox relay looks for due deliveries when not woken' },
  { name: 'WEBHOOK_RECONCILE_MS', default: '30000', description: 'How often the reconciler re-enqueues due deliveries Redis lost' },
  { name: 'WEBHOOK_DISABLE_AFTER_MS', default: '432000000', description: 'A subscription with only failures for this long (5 days) is deactivated' },
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
    trustProxy: trustProxy(raw('TRUST_PROXY'), problems),
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
    rateLimitTiers: tierOverrides(raw('RATE_LIMIT_TIERS'), problems),
    authFailuresPerMinute: int('AUTH_FAILURES_PER_MINUTE', 1, 1_000_000),
    usageFlushMs: int('USAGE_FLUSH_MS', 10, 600_000),
    webhookRetryScheduleMs: msList('WEBHOOK_RETRY_SCHEDULE_MS', raw('WEBHOOK_RETRY_SCHEDULE_MS'), problems),
    webhookTimeoutMs: int('WEBHOOK_TIMEOUT_MS', 100, 600_000),
    webhookConcurrency: int('WEBHOOK_CONCURRENCY', 1, 1000),
    webhookRelayPollMs: int('WEBHOOK_RELAY_POLL_MS', 10, 600_000),
    webhookReconcileMs: int('WEBHOOK_RECONCILE_MS', 50, 86_400_000),
    webhookDisableAfterMs: int('WEBHOOK_DISABLE_AFTER_MS', 1000, 31_536_000_000),
  };
  if (problems.length) {
    const order = (p: string) => CONFIG_VARIABLES.findIndex((v) => p.startsWith(`${v.name}:`));
    throw new ConfigError(problems.sort((a, b) => order(a) - order(b)));
  }
  return config;
}

/** A comma list of delays in milliseconds (0 to 1 day each, at most 20). */
function msList(name: string, text: string, problems: string[]): number[] {
  const items = text.split(',').map((s) => s.trim());
  if (items.length > 20 || items.some((s) => !/^\d{1,8}$/.test(s) || Number(s) > 86_400_000)) {
    problems.push(`${name}: "${text}" is not a comma list of at most 20 delays in milliseconds (0 to 86400000)`);
    return [];
  }
  return items.map(Number);
}

/** RATE_LIMIT_TIERS: `{"<tier>": {"perMinute"?, "perDay"?, "burst"?}}` with non-negative integers (perMinute, perDay ≥ 1). */
function tierOverrides(text: string, problems: string[]): AppConfig['rateLimitTiers'] {
  const bad = (why: string) => {
    problems.push(`RATE_LIMIT_TIERS: ${why}`);
    return {};
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return bad(`"${text}" is not JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return bad('must be a JSON object keyed by tier');
  const out: AppConfig['rateLimitTiers'] = {};
  for (const [tier, limits] of Object.entries(parsed)) {
    if (!['free', 'standard', 'professional', 'enterprise'].includes(tier)) return bad(`unknown tier "${tier}"`);
    if (typeof limits !== 'object' || limits === null || Array.isArray(limits)) return bad(`${tier} must be an object`);
    for (const [field, value] of Object.entries(limits)) {
      if (!['perMinute', 'perDay', 'burst'].includes(field)) return bad(`${tier}.${field} is not perMinute, perDay or burst`);
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < (field === 'burst' ? 0 : 1)) return bad(`${tier}.${field} must be an integer ≥ ${field === 'burst' ? 0 : 1}`);
    }
    out[tier] = limits as Partial<Record<'perMinute' | 'perDay' | 'burst', number>>;
  }
  return out;
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
