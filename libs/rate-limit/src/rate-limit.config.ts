import { defineConfigSection, type ConfigOf, type ConfigReader } from '@libs/config';

type TierOverrides = Record<string, Partial<Record<'perMinute' | 'perDay' | 'burst', number>>>;

/** Rate limits: per-tier overrides of the contract's table, and the failed-authentication limit per address. */
export const RATE_LIMIT_CONFIG = defineConfigSection(
  'rate-limit',
  [
    { name: 'RATE_LIMIT_TIERS', default: '{}', description: 'JSON overrides of the tier limits, e.g. {"free":{"perDay":100}} (perMinute, perDay, burst)' },
    { name: 'AUTH_FAILURES_PER_MINUTE', default: '20', description: 'Failed authentications per client address per minute before 429' },
  ],
  (r) => ({
    /** Per-tier overrides of the rate limits, merged over the contract's table. */
    rateLimitTiers: tierOverrides(r),
    /** Failed authentications a client address may make per minute before it gets 429. */
    authFailuresPerMinute: r.int('AUTH_FAILURES_PER_MINUTE', 1, 1_000_000),
  }),
);
export type RateLimitConfig = ConfigOf<typeof RATE_LIMIT_CONFIG>;

/** RATE_LIMIT_TIERS: `{"<tier>": {"perMinute"?, "perDay"?, "burst"?}}` with non-negative integers (perMinute, perDay ≥ 1). */
function tierOverrides(r: ConfigReader): TierOverrides {
  const text = r.raw('RATE_LIMIT_TIERS');
  const bad = (why: string) => {
    r.problem('RATE_LIMIT_TIERS', why);
    return {};
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return bad(`"${text}" is not JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return bad('must be a JSON object keyed by tier');
  const out: TierOverrides = {};
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
