import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from '@libs/auth';
import { sortColumn } from '@libs/http';
import { poolOf, preparedQuery, sqlParams } from '@libs/sql';
import { TERMINAL_STATUSES } from '../domain';
import { completeRecordDocument } from '../read-model/opportunity-row';
import { OPPORTUNITY_SORTS, type ListOpportunitiesQuery } from './list-opportunities.request.dto';

/** The opportunity queue's list read, always filtered by the caller's tenant. */
@Injectable()
export class ListOpportunities {
  constructor(private readonly dataSource: DataSource) {}

  /** The list page as the response's JSON text (`{"data":[…],"meta":{…}}`): stored documents, never re-serialised. */
  async json(p: Principal, q: ListOpportunitiesQuery): Promise<string> {
    const sql = listOpportunitiesSql(p, q);
    return listPageJson(await preparedQuery<ListRow>(poolOf(this.dataSource), sql.text, sql.params), q);
  }
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
