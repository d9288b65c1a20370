import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from '@libs/auth';
import { poolOf, preparedQuery, sqlParams } from '@libs/sql';
import { SEVERITIES, STATUSES, TERMINAL_STATUSES } from '../domain';

export interface OpportunityKpiSummary {
  byStatus: Record<string, number>;
  bySeverity: Record<string, number>;
  byStatusAndSeverity: Record<string, Record<string, number>>;
  open: number;
  total: number;
  slaBreached: number;
  /** Opportunities in verifying: waiting for enough answers after their fix. */
  awaitingVerification: number;
  asOf: string;
}

/** The KPI summary of the queue, filtered by the caller's tenant. */
@Injectable()
export class OpportunityKpis {
  constructor(private readonly dataSource: DataSource) {}

  async summary(p: Principal, brandId?: number): Promise<OpportunityKpiSummary> {
    const sql = opportunityKpisSql(p, brandId);
    return kpisFromRows(await preparedQuery<KpiRow>(poolOf(this.dataSource), sql.text, sql.params));
  }
}

/**
 * The KPI summary in one statement: the counts by status and severity, each row also carrying the
 * SLA breach total judged now (DESIGN §3: counted at the moment of the request, never stored):
 * open opportunities in the UTC due buckets wholly before now (months before this one, this
 * month's days before today, today's hours before this one, this hour's ten-minute buckets before
 * the current one), plus the current ten minutes' rows already past due. Brand and client filters
 * are present or absent (four shapes), every value a parameter, so it runs prepared.
 */
export function opportunityKpisSql(p: Pick<Principal, 'organizationId' | 'clientId'>, brandId?: number): { text: string; params: unknown[] } {
  const { params, param } = sqlParams(p.organizationId);
  const brand = brandId === undefined ? '' : ` AND brand_id = ${param(brandId)}`;
  const client = p.clientId === null ? null : param(p.clientId);
  // Every read model row carries its brand's client: a client-bound caller filters on it, no join.
  const ownBrands = client === null ? '' : ` AND client_id = ${client}`;
  const utc = (unit: string) => `date_trunc('${unit}', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;
  const tenMinutes = `date_bin('10 minutes', now(), TIMESTAMPTZ '2000-01-01 00:00:00+00')`;
  const buckets = (span: string, from: string | null, to: string) =>
    `(SELECT coalesce(sum(count), 0) FROM opportunity_due_buckets WHERE organization_id = $1 AND span = '${span}'${from === null ? '' : ` AND bucket_start >= ${from}`} AND bucket_start < ${to}${brand}${ownBrands})`;
  return {
    text: `WITH breached AS (SELECT ${buckets('month', null, utc('month'))} + ${buckets('day', utc('month'), utc('day'))}
  + ${buckets('hour', utc('day'), utc('hour'))} + ${buckets('10min', utc('hour'), tenMinutes)}
  + (SELECT count(*) FROM opportunities WHERE organization_id = $1${brand}${ownBrands}
       AND NOT terminal AND due_at >= ${tenMinutes} AND due_at < now()) AS n)
SELECT c.status, c.severity, c.n, breached.n::text AS breached FROM breached LEFT JOIN LATERAL (
  SELECT status, severity, sum(count)::int AS n FROM opportunity_counts WHERE organization_id = $1${brand}${ownBrands} GROUP BY status, severity
) c ON true`,
    params,
  };
}

export interface KpiRow {
  status: string | null;
  severity: string | null;
  n: number | null;
  breached: string;
}

/** The KPI summary from the rows of `opportunityKpisSql` (counts by status and severity, each row carrying the breach total). */
export function kpisFromRows(counts: readonly KpiRow[]): OpportunityKpiSummary {
  const breached = Number(counts[0].breached);
  const byStatus = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<string, number>;
  const bySeverity = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<string, number>;
  const matrix = Object.fromEntries(STATUSES.map((s) => [s, Object.fromEntries(SEVERITIES.map((v) => [v, 0]))])) as Record<string, Record<string, number>>;
  let total = 0;
  let open = 0;
  for (const c of counts) {
    if (c.status === null || c.severity === null || c.n === null) continue; // no counts yet: the breach total's row
    byStatus[c.status] += c.n;
    matrix[c.status][c.severity] += c.n;
    total += c.n;
    if (!TERMINAL_STATUSES.includes(c.status as never)) {
      open += c.n;
      bySeverity[c.severity] += c.n;
    }
  }
  return { byStatus, bySeverity, byStatusAndSeverity: matrix, open, total, slaBreached: breached, awaitingVerification: byStatus.verifying, asOf: new Date().toISOString() };
}

