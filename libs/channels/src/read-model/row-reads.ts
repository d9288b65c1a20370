import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { poolOf, preparedQuery } from '@libs/sql';

/** Which rows a list is over: always the caller's organisation; the rest optional. */
export interface RowFilter {
  organizationId: number;
  /** The caller's client, for a client-bound credential. */
  boundClientId: number | null;
  clientId?: number;
  brandId?: number;
  channel?: string;
  channelId?: number;
  startDate?: string;
  endDate?: string;
}

export interface RowTable {
  table: string;
  /** Output field → SQL expression, in answer order (after the common fields). */
  fields: Record<string, string>;
  /** Fields given back as numbers (bigint and numeric come back from pg as text). */
  numeric: readonly string[];
  /** Columns that make the order total (besides day, channel and brand). */
  tiebreak: string;
}

const COMMON = `to_char(day, 'YYYY-MM-DD') AS "date", channel, channel_id AS "channelId", client_id AS "clientId", brand_id AS "brandId"`;

const WHERE = `WHERE organization_id = $1 AND ($2::bigint IS NULL OR client_id = $2) AND ($3::bigint IS NULL OR client_id = $3)
        AND ($4::bigint IS NULL OR brand_id = $4) AND ($5::text IS NULL OR channel = $5) AND ($6::bigint IS NULL OR channel_id = $6)
        AND ($7::date IS NULL OR day >= $7::date) AND ($8::date IS NULL OR day <= $8::date)`;

const filterParams = (f: RowFilter) => [f.organizationId, f.boundClientId, f.clientId ?? null, f.brandId ?? null, f.channel ?? null, f.channelId ?? null, f.startDate ?? null, f.endDate ?? null];

/** The statement of a page of daily rows, with the total in every row (also run by the benchmark's bare server). */
export function rowsSql(t: RowTable, f: RowFilter, sortColumn: string, order: 'asc' | 'desc', limit: number, offset: number): { text: string; params: unknown[] } {
  const fields = Object.entries(t.fields)
    .map(([name, sql]) => `${sql} AS "${name}"`)
    .join(', ');
  const dir = order === 'asc' ? 'ASC' : 'DESC';
  return {
    text: `SELECT ${COMMON}, ${fields}, count(*) OVER () AS "total" FROM ${t.table} ${WHERE}
      ORDER BY ${sortColumn} ${dir} NULLS LAST, day ${dir}, channel_id, coalesce(brand_id, 0)${t.tiebreak ? `, ${t.tiebreak}` : ''}
      LIMIT $9 OFFSET $10`,
    params: [...filterParams(f), limit, offset],
  };
}

/** Pages of the daily rows of channels (metrics, campaigns, content, audiences), as named prepared statements. */
@Injectable()
export class RowReads {
  constructor(private readonly dataSource: DataSource) {}

  async page(t: RowTable, f: RowFilter, sortColumn: string, order: 'asc' | 'desc', limit: number, offset: number): Promise<{ rows: Record<string, unknown>[]; total: number }> {
    const sql = rowsSql(t, f, sortColumn, order, limit, offset);
    const rows = await preparedQuery<Record<string, unknown>>(poolOf(this.dataSource), sql.text, sql.params);
    let total = rows.length ? Number(rows[0].total) : 0;
    // A page past the end has no row to carry the total: count apart.
    if (!rows.length && offset > 0) total = Number((await this.dataSource.query(`SELECT count(*) AS total FROM ${t.table} ${WHERE}`, filterParams(f)))[0].total);
    for (const r of rows) {
      delete r.total;
      r.channelId = Number(r.channelId);
      r.clientId = Number(r.clientId);
      r.brandId = r.brandId === null ? null : Number(r.brandId);
      for (const n of t.numeric) r[n] = r[n] === null ? null : Number(r[n]);
    }
    return { rows, total };
  }
}
