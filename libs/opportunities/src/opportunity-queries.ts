import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from '@libs/auth';
import { poolOf, preparedQuery, sqlParams } from '@libs/sql';
import { sortColumn } from '@libs/http';
import { SEVERITIES, STATUSES, TERMINAL_STATUSES } from './domain';
import { OPPORTUNITY_SORTS, type ListOpportunitiesQuery } from './list-opportunities/list-opportunities.request.dto';
import { completeRecordDocument } from './read-model/opportunity-row';

export interface OpportunityKpis {
  byStatus: Record<string, number>;
  bySeverity: Record<string, number>;
  byStatusAndSeverity: Record<string, Record<string, number>>;
  open: number;
  total: number;
  slaBreached: number;
  asOf: string;
}

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
}

/** Reads of the opportunity read models, always filtered by the caller's tenant. */
@Injectable()
export class OpportunityQueries {
  constructor(private readonly dataSource: DataSource) {}

  /** The list page as the response's JSON text (`{"data":[…],"meta":{…}}`): stored documents, never re-serialised. */
  async listJson(p: Principal, q: ListOpportunitiesQuery): Promise<string> {
    const sql = listOpportunitiesSql(p, q);
    return listPageJson(await preparedQuery<ListRow>(poolOf(this.dataSource), sql.text, sql.params), q);
  }

  /** One record's JSON text, or null when the caller cannot see it. */
  async getJson(p: Principal, id: number): Promise<string | null> {
    const rows = await preparedQuery<{ document: string; breached: boolean }>(
      poolOf(this.dataSource),
      `SELECT document, NOT terminal AND due_at < now() AS breached FROM opportunities
        WHERE id = $1 AND organization_id = $2 AND ($3::bigint IS NULL OR client_id = $3)`,
      [id, p.organizationId, p.clientId],
    );
    return rows.length ? completeRecordDocument(rows[0].document, rows[0].breached) : null;
  }

  async kpis(p: Principal, brandId?: number): Promise<OpportunityKpis> {
    const sql = opportunityKpisSql(p, brandId);
    return kpisFromRows(await preparedQuery<KpiRow>(poolOf(this.dataSource), sql.text, sql.params));
  }

  async outcomes(p: Principal, sinceDays: number, brandId?: number): Promise<OutcomeRow[]> {
    const params: unknown[] = [p.organizationId, sinceDays, brandId ?? null];
    if (p.clientId !== null) params.push(p.clientId);
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT * FROM opportunity_outcomes
        WHERE organization_id = $1 AND resolved_at >= now() - make_interval(days => $2::int)
          AND ($3::bigint IS NULL OR brand_id = $3)
          ${p.clientId === null ? '' : 'AND brand_id IN (SELECT id FROM brands WHERE organization_id = $1 AND client_id = $4)'}
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
    }));
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
  const ownBrands = client === null ? '' : ` AND brand_id IN (SELECT id FROM brands WHERE organization_id = $1 AND client_id = ${client})`;
  const utc = (unit: string) => `date_trunc('${unit}', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;
  const tenMinutes = `date_bin('10 minutes', now(), TIMESTAMPTZ '2000-01-01 00:00:00+00')`;
  const buckets = (span: string, from: string | null, to: string) =>
    `(SELECT coalesce(sum(count), 0) FROM opportunity_due_buckets WHERE organization_id = $1 AND span = '${span}'${from === null ? '' : ` AND bucket_start >= ${from}`} AND bucket_start < ${to}${brand}${ownBrands})`;
  return {
    text: `WITH breached AS (SELECT ${buckets('month', null, utc('month'))} + ${buckets('day', utc('month'), utc('day'))}
  + ${buckets('hour', utc('day'), utc('hour'))} + ${buckets('10min', utc('hour'), tenMinutes)}
  + (SELECT count(*) FROM opportunities WHERE organization_id = $1${brand}${client === null ? '' : ` AND client_id = ${client}`}
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
export function kpisFromRows(counts: readonly KpiRow[]): OpportunityKpis {
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
  return { byStatus, bySeverity, byStatusAndSeverity: matrix, open, total, slaBreached: breached, asOf: new Date().toISOString() };
}

export interface ListRow {
  total: number;
  document: string | null;
  breached: boolean | null;
}

/**
 * The list's SQL: one statement, always led by the tenant, returning the page's stored record
 * documents (with whether each is breached now) and the filter's total from the per-cell counts
 * the same projection keeps (a few rows, not a count over every match). Every value is a
 * parameter except the page size (1-200) and a zero offset, so the statement's shapes are few and
 * each runs prepared (the benchmark's bare baseline runs exactly this statement).
 */
export function listOpportunitiesSql(
  p: Pick<Principal, 'organizationId' | 'clientId'>,
  q: Pick<ListOpportunitiesQuery, 'brandId' | 'type' | 'severity' | 'status' | 'includeTerminal' | 'sort' | 'order' | 'limit' | 'offset'>,
): { text: string; params: unknown[] } {
  const where = ['organization_id = $1'];
  const { params, param } = sqlParams(p.organizationId);
  if (p.clientId !== null) where.push(`client_id = ${param(p.clientId)}`);
  if (q.brandId !== undefined) where.push(`brand_id = ${param(q.brandId)}`);
  if (q.type?.length) where.push(`type = ANY(${param(q.type)}::text[])`);
  if (q.severity?.length) where.push(`severity = ANY(${param(q.severity)}::text[])`);
  if (q.status?.length) where.push(`status = ANY(${param(q.status)}::text[])`);
  const column = sortColumn(q.sort, OPPORTUNITY_SORTS, 'detectedAt');
  const direction = q.order === 'asc' ? 'ASC' : 'DESC';
  const shared = where.join(' AND ');
  const defaultOpen = !q.status?.length && !q.includeTerminal;
  const rowFilter = `${shared}${defaultOpen ? ' AND NOT terminal' : ''}`;
  const cellFilter = `${shared}${defaultOpen ? ` AND status <> ALL('{${TERMINAL_STATUSES.join(',')}}'::text[])` : ''}`;
  const limit = Math.trunc(Number(q.limit));
  const offset = q.offset === 0 ? '0' : param(q.offset);
  return {
    text: `WITH total AS (SELECT coalesce(sum(count), 0)::int AS total FROM opportunity_list_counts WHERE ${cellFilter})
SELECT total.total, page.document, page.breached FROM total LEFT JOIN LATERAL (
  SELECT document, NOT terminal AND due_at < now() AS breached, ${column} AS sort_key, id FROM opportunities
  WHERE ${rowFilter} ORDER BY ${column} ${direction}, id ${direction} LIMIT ${limit} OFFSET ${offset}
) page ON true ORDER BY page.sort_key ${direction}, page.id ${direction}`,
    params,
  };
}

/** The list response's JSON from the statement's rows (the stored documents, completed, in order). */
export function listPageJson(rows: readonly ListRow[], q: Pick<ListOpportunitiesQuery, 'limit' | 'offset'>): string {
  const total = rows.length ? rows[0].total : 0;
  let data = '';
  let count = 0;
  for (const row of rows) {
    if (row.document === null) continue; // the total's row when the page is empty
    data += (count++ === 0 ? '' : ',') + completeRecordDocument(row.document, row.breached === true);
  }
  return `{"data":[${data}],"meta":${JSON.stringify({ total, limit: q.limit, offset: q.offset, hasMore: q.offset + count < total })}}`;
}
