import { Injectable, Module } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { isTier, type Tier } from '@libs/auth';
import { InjectConfig } from '@libs/config';
import { ApiError } from '@libs/http';
import { decideQuota, quotaWindows, resolveQuotas, type Quota, type QuotaLimits, type QuotaRefusal, type QuotaWindows } from './domain/organization-quota';
import { RATE_LIMIT_CONFIG, type RateLimitConfig } from './rate-limit.config';

/** The default quotas by the organisation's tier (README "Quotas"; `QUOTA_TIERS` overrides them). */
export const DEFAULT_QUOTAS: Readonly<Record<Tier, Readonly<Record<Quota, QuotaLimits>>>> = {
  free: { page_audit_pages: { perDay: 100, perMonth: 1_000 }, audit_requests: { perDay: 10, perMonth: 100 } },
  standard: { page_audit_pages: { perDay: 1_000, perMonth: 10_000 }, audit_requests: { perDay: 100, perMonth: 1_000 } },
  professional: { page_audit_pages: { perDay: 5_000, perMonth: 50_000 }, audit_requests: { perDay: 500, perMonth: 5_000 } },
  enterprise: { page_audit_pages: { perDay: 20_000, perMonth: 200_000 }, audit_requests: { perDay: 2_000, perMonth: 20_000 } },
};

/** What a reservation took, to give back (refund) if the work is not done after all. */
export interface QuotaReservation {
  organizationId: number;
  quota: Quota;
  amount: number;
  windows: QuotaWindows;
}

export type QuotaGrant = { granted: number; reservation: QuotaReservation; refusal: null } | { granted: 0; reservation: null; refusal: QuotaRefusal };

/** 429 RATE_LIMITED for a refused quota, with `Retry-After` (whole seconds until the window that refused it starts again). */
export function quotaExceeded(refusal: QuotaRefusal, now = new Date()): ApiError {
  const retryAfter = Math.max(1, Math.ceil((refusal.resetsAt.getTime() - now.getTime()) / 1000));
  const what = refusal.quota === 'page_audit_pages' ? 'page-audit pages' : 'audit requests';
  const period = refusal.period === 'day' ? 'daily' : 'monthly';
  const message =
    refusal.requested > refusal.max
      ? `This request asks for ${refusal.requested} ${what}, more than the organisation's ${period} quota of ${refusal.max}`
      : `The organisation's ${period} quota of ${what} is used up (${refusal.used} of ${refusal.max}; ${refusal.remaining} left, ${refusal.requested} asked)`;
  return new ApiError(
    429,
    'RATE_LIMITED',
    message,
    { quota: refusal.quota, period: refusal.period, max: refusal.max, used: refusal.used, requested: refusal.requested, remaining: refusal.remaining, resetsAt: refusal.resetsAt.toISOString() },
    { 'Retry-After': String(retryAfter) },
  );
}

/**
 * Per-organisation quotas by tier (page-audit pages, audit requests), per UTC day and UTC month,
 * counted in PostgreSQL (`organization_quota_usage`): a reservation locks the organisation's two
 * rows of that quota, checks both windows and adds to both in one transaction, so every API and
 * worker process shares one count and concurrent requests can never take more than the quota.
 * The tier is the organisation's (`organizations.tier`, read in the same transaction).
 */
@Injectable()
export class OrganizationQuotas {
  private readonly limits: Record<Tier, Record<Quota, QuotaLimits>>;

  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig(RATE_LIMIT_CONFIG) config: RateLimitConfig,
  ) {
    this.limits = resolveQuotas(DEFAULT_QUOTAS, config.quotaTiers);
  }

  /** The limits of a tier (as configured). */
  limitsOf(tier: Tier, quota: Quota): QuotaLimits {
    return this.limits[tier][quota];
  }

  /**
   * Takes `amount` units of a quota now: all of them, or with `partial` as many as both windows
   * still allow (at least one), or none, with the window that refused them.
   */
  async reserve(organizationId: number, quota: Quota, amount: number, opts: { partial?: boolean; now?: Date; within?: EntityManager } = {}): Promise<QuotaGrant> {
    const windows = quotaWindows(opts.now ?? new Date());
    const run = async (m: EntityManager): Promise<QuotaGrant> => {
      const { limits, used } = await this.lockedUsage(m, organizationId, quota, windows);
      const decision = decideQuota(quota, limits, used, amount, windows, opts.partial);
      if (decision.refusal) return { granted: 0, reservation: null, refusal: decision.refusal };
      if (decision.granted > 0) await this.add(m, organizationId, quota, windows, decision.granted);
      return { granted: decision.granted, reservation: { organizationId, quota, amount: decision.granted, windows }, refusal: null };
    };
    // Inside the caller's transaction (so the reservation commits or rolls back with its work), or in one of its own.
    return opts.within ? run(opts.within) : this.dataSource.transaction(run);
  }

  /** Takes `amount` units or throws 429 RATE_LIMITED (quotaExceeded). */
  async reserveOrRefuse(organizationId: number, quota: Quota, amount: number): Promise<QuotaReservation> {
    const grant = await this.reserve(organizationId, quota, amount);
    if (grant.refusal) throw quotaExceeded(grant.refusal);
    return grant.reservation;
  }

  /** Throws 429 unless at least `amount` units are left now (takes nothing: for work whose size is known later). */
  async assertRoom(organizationId: number, quota: Quota, amount = 1): Promise<void> {
    const windows = quotaWindows(new Date());
    const [row]: { tier: string; day: string | null; month: string | null }[] = await this.dataSource.query(
      `SELECT o.tier,
         (SELECT used FROM organization_quota_usage WHERE organization_id = o.id AND quota = $2 AND period = 'day' AND period_start = $3) AS day,
         (SELECT used FROM organization_quota_usage WHERE organization_id = o.id AND quota = $2 AND period = 'month' AND period_start = $4) AS month
       FROM organizations o WHERE o.id = $1`,
      [organizationId, quota, windows.day, windows.month],
    );
    if (!row) throw new Error(`organisation ${organizationId} does not exist`);
    const decision = decideQuota(quota, this.tierLimits(row.tier, quota), { day: Number(row.day ?? 0), month: Number(row.month ?? 0) }, amount, windows);
    if (decision.refusal) throw quotaExceeded(decision.refusal);
  }

  /** Gives a reservation back (the work was not done), in the windows it was taken from. */
  async refund(r: QuotaReservation): Promise<void> {
    if (r.amount <= 0) return;
    await this.dataSource.query(
      `UPDATE organization_quota_usage SET used = greatest(used - $5, 0), updated_at = now()
        WHERE organization_id = $1 AND quota = $2 AND ((period = 'day' AND period_start = $3) OR (period = 'month' AND period_start = $4))`,
      [r.organizationId, r.quota, r.windows.day, r.windows.month, r.amount],
    );
  }

  private tierLimits(tier: string, quota: Quota): QuotaLimits {
    return this.limits[isTier(tier) ? tier : 'free'][quota];
  }

  /** The organisation's limits and what its day and month have used, their rows locked (day, then month: one order, no deadlock). */
  private async lockedUsage(m: EntityManager, organizationId: number, quota: Quota, w: QuotaWindows): Promise<{ limits: QuotaLimits; used: { day: number; month: number } }> {
    const [org]: { tier: string }[] = await m.query(`SELECT tier FROM organizations WHERE id = $1`, [organizationId]);
    if (!org) throw new Error(`organisation ${organizationId} does not exist`);
    await m.query(
      `INSERT INTO organization_quota_usage (organization_id, quota, period, period_start) VALUES ($1, $2, 'day', $3), ($1, $2, 'month', $4) ON CONFLICT DO NOTHING`,
      [organizationId, quota, w.day, w.month],
    );
    const rows: { period: 'day' | 'month'; used: string }[] = await m.query(
      `SELECT period, used FROM organization_quota_usage
        WHERE organization_id = $1 AND quota = $2 AND ((period = 'day' AND period_start = $3) OR (period = 'month' AND period_start = $4))
        ORDER BY period FOR UPDATE`,
      [organizationId, quota, w.day, w.month],
    );
    const used = { day: 0, month: 0 };
    for (const r of rows) used[r.period] = Number(r.used);
    return { limits: this.tierLimits(org.tier, quota), used };
  }

  private async add(m: EntityManager, organizationId: number, quota: Quota, w: QuotaWindows, amount: number): Promise<void> {
    await m.query(
      `UPDATE organization_quota_usage SET used = used + $5, updated_at = now()
        WHERE organization_id = $1 AND quota = $2 AND ((period = 'day' AND period_start = $3) OR (period = 'month' AND period_start = $4))`,
      [organizationId, quota, w.day, w.month, amount],
    );
  }
}

/** The quotas, for the API (page audits, audit requests) and the worker (a sitemap's pages). */
@Module({
  providers: [OrganizationQuotas],
  exports: [OrganizationQuotas],
})
export class QuotaModule {}
