import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AnswerFilter } from '@libs/analysis';
import type { DayKey } from '@libs/metrics';
import { poolOf, preparedQuery } from '@libs/sql';
import { ROLLUP_COUNTER_NAMES, type EntitySums } from '../domain/entity-sums';
import { ANSWER_DAILY_ROLLUPS, rollupColumn } from './answer-rollups.table';


export type RollupGroup = 'day' | 'provider' | 'query';

export interface RollupRow extends EntitySums {
  entityId: string;
  day?: DayKey;
  provider?: string;
  query?: string;
}

/** Every counter summed over the cells (SQL sum of an integer is a bigint: cast back), named as its column. */
const SUMS = ROLLUP_COUNTER_NAMES.map((k) => {
  const column = rollupColumn(k);
  return `sum(${column})::${ANSWER_DAILY_ROLLUPS.columns[column] === 'integer' ? 'int' : 'float8'} AS ${column}`;
}).join(', ');
const COUNTERS = ROLLUP_COUNTER_NAMES.map((k) => [k, rollupColumn(k)] as const);

/** The statement behind RollupReads.sums (also run by the benchmark's bare server). */
export function rollupSumsSql(f: AnswerFilter, groups: readonly RollupGroup[]): { text: string; params: unknown[] } {
  const columns = groups.map((g) => (g === 'day' ? `to_char(day, 'YYYY-MM-DD') AS day` : g));
  const groupBy = [...groups, 'entity_id'].join(', ');
  return {
    text: `SELECT ${[...columns, 'entity_id'].join(', ')}, ${SUMS} FROM ${ANSWER_DAILY_ROLLUPS.table}
        WHERE organization_id = $1 AND brand_id = $2 AND day BETWEEN $3::date AND $4::date
          AND ($5::text IS NULL OR provider = $5) AND ($6::bigint[] IS NULL OR prompt_id = ANY($6::bigint[]))
        GROUP BY ${groupBy}`,
    params: [f.organizationId, f.brandId, f.start, f.end, f.provider ?? null, f.promptIds ? [...f.promptIds] : null],
  };
}

/** Sums of the daily rollups (DESIGN §14 figures re-aggregate from them exactly), grouped as asked, per entity. */
@Injectable()
export class RollupReads {
  constructor(private readonly dataSource: DataSource) {}

  async sums(f: AnswerFilter, groups: readonly RollupGroup[]): Promise<RollupRow[]> {
    const sql = rollupSumsSql(f, groups);
    // A named prepared statement per shape (planned once per pooled connection), as the benchmark's bare server runs it.
    const rows = await preparedQuery<Record<string, unknown>>(poolOf(this.dataSource), sql.text, sql.params);
    return rows.map((r) => {
      const row = {
        entityId: r.entity_id as string,
        ...(r.day !== undefined && { day: r.day as string }),
        ...(r.provider !== undefined && { provider: r.provider as string }),
        ...(r.query !== undefined && { query: r.query as string }),
      } as RollupRow;
      for (const [counter, column] of COUNTERS) row[counter] = r[column] as number;
      return row;
    });
  }

  /** The newest day with answers of the brand, or null. */
  async latestDay(organizationId: number, brandId: number): Promise<DayKey | null> {
    const [r]: { day: string | null }[] = await this.dataSource.query(`SELECT to_char(max(day), 'YYYY-MM-DD') AS day FROM answer_daily_rollups WHERE organization_id = $1 AND brand_id = $2 AND answers > 0`, [organizationId, brandId]);
    return r?.day ?? null;
  }

  /**
   * The UTC day the brand's newest complete run started (status completed, or partial: it ended
   * with answers), or null: the day `sov/latest` reports, so that a run still in progress does
   * not stand for "the latest".
   */
  async latestCompleteRunDay(organizationId: number, brandId: number): Promise<DayKey | null> {
    const [r]: { day: string }[] = await this.dataSource.query(
      `SELECT to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day FROM analysis_runs
        WHERE organization_id = $1 AND brand_id = $2 AND status IN ('completed', 'partial') AND started_at IS NOT NULL
        ORDER BY id DESC LIMIT 1`,
      [organizationId, brandId],
    );
    return r?.day ?? null;
  }
}
