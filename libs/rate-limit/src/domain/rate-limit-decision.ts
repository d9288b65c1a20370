/**
 * Pure rate-limit arithmetic: which limits apply to a tier, and how the Redis script's answer
 * becomes a decision and its response headers. No I/O.
 */
export interface Limits {
  perMinute: number;
  perDay: number;
  burst: number;
}

export type LimitOverrides = Record<string, Partial<Limits>>;

/** The contract's table with configured overrides merged over it, per tier. */
export function resolveLimits<T extends string>(base: Record<T, Limits>, overrides: LimitOverrides): Record<T, Limits> {
  const out = {} as Record<T, Limits>;
  for (const tier of Object.keys(base) as T[]) out[tier] = { ...base[tier], ...(overrides[tier] ?? {}) };
  return out;
}

const DAY_MS = 86_400_000;

/** "YYYY-MM-DD" of the UTC day containing `now`. */
export function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** Milliseconds from `now` until the next UTC midnight (never 0). */
export function msUntilUtcMidnight(now: number): number {
  return DAY_MS - (now % DAY_MS);
}

/** One limit as the script reports it. */
export interface LimitLevel {
  remaining: number;
  /** ms until one more request is allowed (0 when one is allowed now). */
  msUntilNext: number;
  /** ms until the limit is fully restored. */
  msUntilFull: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** Which limit is the tighter one right now (the one the headers describe). */
  binding: 'minute' | 'day';
  limit: number;
  remaining: number;
  resetSeconds: number;
  /** Set when not allowed: whole seconds until one request is allowed again (≥ 1). */
  retryAfterSeconds: number | null;
  headers: Record<string, string>;
}

/** Parses the script's flat reply for [minute bucket, day counter]. */
export function levelsOf(reply: readonly number[]): { allowed: boolean; minute: LimitLevel; day: LimitLevel } {
  return {
    allowed: reply[0] === 1,
    minute: { remaining: reply[1], msUntilNext: reply[2], msUntilFull: reply[3] },
    day: { remaining: reply[4], msUntilNext: reply[5], msUntilFull: reply[6] },
  };
}

const policyCache = new WeakMap<Limits, string>();

/** IETF draft (httpapi-ratelimit-headers) RateLimit-Policy: the minute bucket's capacity over 60 s, the day's quota. */
export function policyHeader(limits: Limits): string {
  let policy = policyCache.get(limits);
  if (policy === undefined) {
    policy = `"minute";q=${limits.perMinute + limits.burst};w=60, "day";q=${limits.perDay};w=86400`;
    policyCache.set(limits, policy);
  }
  return policy;
}

/**
 * The decision and headers: X-RateLimit-Limit is the tier's per-minute figure; Remaining the
 * requests possible now (the tighter of the two limits); Reset the whole seconds until that
 * limit is fully restored; Retry-After (when refused) the whole seconds until one request is
 * allowed again. The IETF pair describes the same binding limit.
 */
export function decide(reply: readonly number[], limits: Limits): RateLimitDecision {
  const { allowed, minute, day } = levelsOf(reply);
  const dayBinds = day.remaining < minute.remaining || (day.remaining === minute.remaining && day.msUntilFull > minute.msUntilFull);
  const binding = dayBinds ? day : minute;
  const remaining = Math.max(0, binding.remaining);
  const resetSeconds = Math.ceil(binding.msUntilFull / 1000);
  const name = dayBinds ? 'day' : 'minute';
  let retryAfterSeconds: number | null = null;
  if (!allowed) retryAfterSeconds = Math.max(1, Math.ceil(Math.max(minute.msUntilNext, day.msUntilNext) / 1000));
  return { allowed, binding: name, limit: limits.perMinute, remaining, resetSeconds, retryAfterSeconds, headers: headersOf(limits, name, remaining, resetSeconds, retryAfterSeconds) };
}

function headersOf(limits: Limits, name: 'minute' | 'day', remaining: number, resetSeconds: number, retryAfterSeconds: number | null): Record<string, string> {
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(limits.perMinute),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(resetSeconds),
    'ratelimit-policy': policyHeader(limits),
    ratelimit: `"${name}";r=${remaining};t=${resetSeconds}`,
  };
  if (retryAfterSeconds !== null) headers['retry-after'] = String(retryAfterSeconds);
  return headers;
}

/** The same decision with another `remaining` (a request served from a lease). */
export function withRemaining(d: RateLimitDecision, limits: Limits, remaining: number): RateLimitDecision {
  return { ...d, remaining, headers: headersOf(limits, d.binding, remaining, d.resetSeconds, d.retryAfterSeconds) };
}

/** How many requests the script consumed (the last element of its reply). */
export function grantedOf(reply: readonly number[]): number {
  return reply[reply.length - 1] ?? 0;
}
