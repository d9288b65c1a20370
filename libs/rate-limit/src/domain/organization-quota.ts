/**
 * Quotas per organisation, by its tier: how much costly work (pages fetched by page audits, AI
 * engines asked by audit requests) an organisation may ask for per UTC day and per UTC month.
 * Pure: the limits, the windows, and the decision on a request of `amount` units. No I/O.
 */
export const QUOTAS = ['page_audit_pages', 'audit_requests'] as const;
export type Quota = (typeof QUOTAS)[number];
export type QuotaPeriod = 'day' | 'month';

export interface QuotaLimits {
  perDay: number;
  perMonth: number;
}

/** The names `QUOTA_TIERS` uses for each quota and period. */
export const QUOTA_SETTINGS = {
  pageAuditPagesPerDay: ['page_audit_pages', 'perDay'],
  pageAuditPagesPerMonth: ['page_audit_pages', 'perMonth'],
  auditRequestsPerDay: ['audit_requests', 'perDay'],
  auditRequestsPerMonth: ['audit_requests', 'perMonth'],
} as const satisfies Record<string, readonly [Quota, keyof QuotaLimits]>;
export type QuotaSetting = keyof typeof QUOTA_SETTINGS;
export type QuotaOverrides = Record<string, Partial<Record<QuotaSetting, number>>>;

/** The defaults (per tier) with the configured overrides merged over them. */
export function resolveQuotas<T extends string>(base: Readonly<Record<T, Readonly<Record<Quota, QuotaLimits>>>>, overrides: QuotaOverrides): Record<T, Record<Quota, QuotaLimits>> {
  const out = {} as Record<T, Record<Quota, QuotaLimits>>;
  for (const tier of Object.keys(base) as T[]) {
    out[tier] = { page_audit_pages: { ...base[tier].page_audit_pages }, audit_requests: { ...base[tier].audit_requests } };
    for (const [setting, value] of Object.entries(overrides[tier] ?? {}) as [QuotaSetting, number][]) {
      const [quota, field] = QUOTA_SETTINGS[setting];
      out[tier][quota][field] = value;
    }
  }
  return out;
}

/** The UTC day and month containing `now`, with the moments they end. */
export interface QuotaWindows {
  /** 'YYYY-MM-DD' */
  day: string;
  /** 'YYYY-MM-01' */
  month: string;
  dayEndsAt: Date;
  monthEndsAt: Date;
}

export function quotaWindows(now: Date): QuotaWindows {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  return {
    day: new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10),
    month: new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10),
    dayEndsAt: new Date(Date.UTC(y, m, d + 1)),
    monthEndsAt: new Date(Date.UTC(y, m + 1, 1)),
  };
}

/** Why a request was refused: the window that cannot take it, with its figures. */
export interface QuotaRefusal {
  quota: Quota;
  period: QuotaPeriod;
  /** The window's limit. */
  max: number;
  used: number;
  requested: number;
  /** What the window (and the other one) could still take now. */
  remaining: number;
  /** When that window starts again (a request of at most `max` may pass then). */
  resetsAt: Date;
}

export type QuotaDecision = { granted: number; refusal: null } | { granted: 0; refusal: QuotaRefusal };

/**
 * What a request for `amount` units gets, given what the day and the month have used: all of it,
 * or (with `partial`) as much as both windows still allow, or nothing, with the window that
 * refused it. When both are short, the month is named (the day's reset would not help).
 */
export function decideQuota(quota: Quota, limits: QuotaLimits, used: { day: number; month: number }, amount: number, windows: QuotaWindows, partial = false): QuotaDecision {
  const dayLeft = Math.max(0, limits.perDay - used.day);
  const monthLeft = Math.max(0, limits.perMonth - used.month);
  const remaining = Math.min(dayLeft, monthLeft);
  if (amount <= remaining) return { granted: amount, refusal: null };
  if (partial && remaining > 0) return { granted: remaining, refusal: null };
  const byMonth = monthLeft < amount;
  return {
    granted: 0,
    refusal: {
      quota,
      period: byMonth ? 'month' : 'day',
      max: byMonth ? limits.perMonth : limits.perDay,
      used: byMonth ? used.month : used.day,
      requested: amount,
      remaining,
      resetsAt: byMonth ? windows.monthEndsAt : windows.dayEndsAt,
    },
  };
}
