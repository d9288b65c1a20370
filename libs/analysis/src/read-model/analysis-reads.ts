import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { TenantScope } from '@libs/tenancy';
import { RESULT_COLUMNS, RUN_COLUMNS, TENANT, toResult, toRun, type AnalysisResultRecord, type AnalysisRunRecord } from './analysis-records';

/** Reads of the analysis read models, always within the caller's tenant. */
@Injectable()
export class AnalysisReads {
  constructor(private readonly dataSource: DataSource) {}

  async runs(scope: TenantScope, q: { brandId?: number; limit: number; offset: number; order: 'asc' | 'desc'; sortColumn: string }): Promise<{ rows: AnalysisRunRecord[]; total: number }> {
    const where = `${TENANT} AND ($3::bigint IS NULL OR brand_id = $3)`;
    const params = [scope.organizationId, scope.clientId, q.brandId ?? null];
    const dir = q.order === 'asc' ? 'ASC' : 'DESC';
    const [rows, [{ n }]]: [Record<string, unknown>[], { n: number }[]] = await Promise.all([
      this.dataSource.query(`SELECT ${RUN_COLUMNS} FROM analysis_runs WHERE ${where} ORDER BY ${q.sortColumn} ${dir} NULLS LAST, id ${dir} LIMIT $4 OFFSET $5`, [...params, q.limit, q.offset]),
      this.dataSource.query(`SELECT count(*)::int AS n FROM analysis_runs WHERE ${where}`, params),
    ]);
    return { rows: rows.map(toRun), total: n };
  }

  async run(scope: TenantScope, id: number): Promise<AnalysisRunRecord | null> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(`SELECT ${RUN_COLUMNS} FROM analysis_runs WHERE ${TENANT} AND id = $3`, [scope.organizationId, scope.clientId, id]);
    return rows.length ? toRun(rows[0]) : null;
  }

  async results(
    scope: TenantScope,
    q: { runId?: number; brandId?: number; provider?: string; country?: string; language?: string; from?: string; to?: string; text?: string; limit: number; offset: number; order: 'asc' | 'desc' },
  ): Promise<{ rows: AnalysisResultRecord[]; total: number }> {
    // `text`: answers containing it, case-insensitively (its % _ \ taken literally).
    const where = `${TENANT} AND ($3::bigint IS NULL OR run_id = $3) AND ($4::bigint IS NULL OR brand_id = $4) AND ($5::text IS NULL OR provider = $5)
      AND ($6::timestamptz IS NULL OR asked_at >= $6) AND ($7::timestamptz IS NULL OR asked_at < $7)
      AND ($8::text IS NULL OR country = $8) AND ($9::text IS NULL OR language = $9)
      AND ($10::text IS NULL OR answer ILIKE '%' || $10 || '%')`;
    const text = q.text === undefined ? null : q.text.replace(/[\\%_]/g, (c) => `\\${c}`);
    const params = [scope.organizationId, scope.clientId, q.runId ?? null, q.brandId ?? null, q.provider ?? null, q.from ?? null, q.to ?? null, q.country ?? null, q.language ?? null, text];
    const dir = q.order === 'asc' ? 'ASC' : 'DESC';
    // A run's results in its order (query by query, provider by provider); across runs, by time.
    const orderBy = q.runId !== undefined ? `n ${dir}` : `asked_at ${dir}, id ${dir}`;
    const [rows, [{ n }]]: [Record<string, unknown>[], { n: number }[]] = await Promise.all([
      this.dataSource.query(`SELECT ${RESULT_COLUMNS} FROM analysis_results WHERE ${where} ORDER BY ${orderBy} LIMIT $11 OFFSET $12`, [...params, q.limit, q.offset]),
      this.dataSource.query(`SELECT count(*)::int AS n FROM analysis_results WHERE ${where}`, params),
    ]);
    return { rows: rows.map(toResult), total: n };
  }
}
