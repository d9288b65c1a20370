import { isTier } from '@libs/auth';
import { defineConfigSection, type ConfigOf, type ConfigReader } from '@libs/config';
import { QUOTA_SETTINGS, type QuotaOverrides } from './domain/organization-quota';

type TierOverrides = Record<string, Partial<Record<'perMinute' | 'perDay' | 'burst', number>>>;

/** Rate limits: per-tier overrides of the contract's table, and the failed-authentication limit per address. */
export const RATE_LIMIT_CONFIG = defineConfigSection(
  'rate-limit',
  [
    { name: 'RATE_LIMIT_TIERS', default: '{}', description: 'JSON overrides of the tier limits, e.g. {"free":{"perDay":100}} (perMinute, perDay, burst)' },
    { name: 'AUTH_FAILURES_PER_MINUTE', default: '20', description: 'Failed authentications per client address per minute before 429' },
    {
      name: 'QUOTA_TIERS',
      default: '{}',
      description: 'JSON overrides of the per-organisation quotas by tier, e.g. {"free":{"pageAuditPagesPerDay":50}} (pageAuditPagesPerDay, pageAuditPagesPerMonth, auditRequestsPerDay, auditRequestsPerMonth)',
    },
  ],
  (r) => ({
    /** Per-tier overrides of the rate limits, merged over the contract's table. */
    rateLimitTiers: tierOverrides(r),
    /** Failed authentications a client address may make per minute before it gets 429. */
    authFailuresPerMinute: r.int('AUTH_FAILURES_PER_MINUTE', 1, 1_000_000),
    /** Per-tier overrides of the organisation quotas (page-audit pages, audit requests), merged over the defaults. */
    quotaTiers: quotaOverrides(r),
  }),
);
export type RateLimitConfig = ConfigOf<typeof RATE_LIMIT_CONFIG>;

/** RATE_LIMIT_TIERS: `{"<tier>": {"perMinute"?, "perDay"?, "burst"?}}` with non-negative integers (perMinute, perDay ≥ 1). */
function tierOverrides(r: ConfigReader): TierOverrides {
  return overridesByTier(r, 'RATE_LIMIT_TIERS', ['perMinute', 'perDay', 'burst'], (field) => (field === 'burst' ? 0 : 1));
}

/** QUOTA_TIERS: `{"<tier>": {"pageAuditPagesPerDay"?, …}}` with non-negative integers (0: none at all). */
function quotaOverrides(r: ConfigReader): QuotaOverrides {
  return overridesByTier(r, 'QUOTA_TIERS', Object.keys(QUOTA_SETTINGS), () => 0);
}

/** A JSON object of per-tier integer settings (`{"free": {"<field>": n}}`); a bad one is a problem naming the variable. */
function overridesByTier(r: ConfigReader, name: string, fields: readonly string[], min: (field: string) => number): Record<string, Record<string, number>> {
  const text = r.raw(name);
  const bad = (why: string) => {
    r.problem(name, why);
    return {};
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return bad(`"${text}" is not JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return bad('must be a JSON object keyed by tier');
  const out: Record<string, Record<string, number>> = {};
  for (const [tier, limits] of Object.entries(parsed)) {
    if (!isTier(tier)) return bad(`unknown tier "${tier}"`);
    if (typeof limits !== 'object' || limits === null || Array.isArray(limits)) return bad(`${tier} must be an object`);
    for (const [field, value] of Object.entries(limits)) {
      if (!fields.includes(field)) return bad(`${tier}.${field} is not ${fields.length > 3 ? 'one of ' : ''}${fields.slice(0, -1).join(', ')} or ${fields.at(-1)}`);
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min(field)) return bad(`${tier}.${field} must be an integer ≥ ${min(field)}`);
    }
    out[tier] = limits as Record<string, number>;
  }
  return out;
}
