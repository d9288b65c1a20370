import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from '@libs/auth';

export interface OutcomeRow {
  opportunityId: number;
  brandId: number;
  type: string;
  severity: string;
  title: string;
  resolvedAt: string;
  finalizedAt: string | null;
  citationRateBefore: number | null;
  citationRateAfter: number | null;
  aiTrafficBefore: number | null;
  aiTrafficAfter: number | null;
  conversions: number | null;
  revenue: number | null;
  currency: string | null;
  mentionRateBefore: number | null;
  mentionRateAfter: number | null;
}

export interface OutcomeTotals {
  resolved: number;
  withOutcome: number;
  citationRateBeforeAvg: number | null;
  citationRateAfterAvg: number | null;
  mentionRateBeforeAvg: number | null;
  mentionRateAfterAvg: number | null;
  aiTrafficBefore: number | null;
  aiTrafficAfter: number | null;
  conversions: number | null;
  revenue: number | null;
}

export interface OutcomesSummaryData {
  sinceDays: number;
  from: string;
  to: string;
  totals: OutcomeTotals;
  rows: OutcomeRow[];
}

const known = (xs: (number | null)[]) => xs.filter((x): x is number => x !== null);
/** The sum of the known figures, null when none is known (no data is not 0). */
const sum = (xs: (number | null)[]) => {
  const k = known(xs);
  return k.length ? k.reduce((a, x) => a + x, 0) : null;
};
const mean = (xs: (number | null)[]) => {
  const k = known(xs);
  return k.length ? k.reduce((a, x) => a + x, 0) / k.length : null;
};

/** Totals over the finalised outcomes among `rows` (an average of the rates that are known; unknown figures add nothing; null when none is known). */
export function outcomeTotals(rows: readonly OutcomeRow[]): OutcomeTotals {
  const final = rows.filter((r) => r.finalizedAt !== null);
  return {
    resolved: rows.length,
    withOutcome: final.length,
    citationRateBeforeAvg: mean(final.map((r) => r.citationRateBefore)),
    citationRateAfterAvg: mean(final.map((r) => r.citationRateAfter)),
    mentionRateBeforeAvg: mean(final.map((r) => r.mentionRateBefore)),
    mentionRateAfterAvg: mean(final.map((r) => r.mentionRateAfter)),
    aiTrafficBefore: sum(final.map((r) => r.aiTrafficBefore)),
    aiTrafficAfter: sum(final.map((r) => r.aiTrafficAfter)),
    conversions: sum(final.map((r) => r.conversions)),
    revenue: sum(final.map((r) => r.revenue)),
  };
}

/** Outcome rows of the opportunities resolved in a window, and their totals, filtered by the caller's tenant. */
@Injectable()
export class OutcomesSummary {
  constructor(private readonly dataSource: DataSource) {}

  /** The window ending now, its rows (newest resolution first) and their totals. */
  async summary(p: Principal, sinceDays: number, brandId?: number): Promise<OutcomesSummaryData> {
    const rows = await this.rows(p, sinceDays, brandId);
    const to = new Date();
    return { sinceDays, from: new Date(to.getTime() - sinceDays * 86_400_000).toISOString(), to: to.toISOString(), totals: outcomeTotals(rows), rows };
  }

  async rows(p: Principal, sinceDays: number, brandId?: number): Promise<OutcomeRow[]> {
    const params: unknown[] = [p.organizationId, sinceDays, brandId ?? null];
    if (p.clientId !== null) params.push(p.clientId);
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT * FROM opportunity_outcomes
        WHERE organization_id = $1 AND resolved_at >= now() - make_interval(days => $2::int)
          AND ($3::bigint IS NULL OR brand_id = $3)
          ${p.clientId === null ? '' : 'AND client_id = $4'}
        ORDER BY resolved_at DESC, opportunity_id DESC`,
      params,
    );
    const num = (v: unknown) => (v === null ? null : Number(v));
    return rows.map((r) => ({
      opportunityId: Number(r.opportunity_id),
      brandId: Number(r.brand_id),
      type: r.type as string,
      severity: r.severity as string,
      title: r.title as string,
      resolvedAt: (r.resolved_at as Date).toISOString(),
      finalizedAt: r.finalized_at === null ? null : (r.finalized_at as Date).toISOString(),
      citationRateBefore: num(r.citation_rate_before),
      citationRateAfter: num(r.citation_rate_after),
      aiTrafficBefore: num(r.ai_traffic_before),
      aiTrafficAfter: num(r.ai_traffic_after),
      conversions: num(r.conversions),
      revenue: num(r.revenue),
      currency: r.currency as string | null,
      mentionRateBefore: num(r.mention_rate_before),
      mentionRateAfter: num(r.mention_rate_after),
    }));
  }
}
