import { Injectable, Optional } from '@nestjs/common';
import { ReadReplica, lagTolerantPool } from '@libs/database';
import { DataSource } from 'typeorm';
import { ANSWER_FILTER_WHERE, answerFilterParams, type AnswerFilter } from '@libs/analysis';
import type { DayKey } from '@libs/metrics';
import { poolOf, preparedQuery } from '@libs/sql';
import { ROLLUP_COUNTER_NAMES, ROLLUP_COUNTERS, type EntitySums, type RollupCounter } from '../domain/entity-sums';
import { ANSWER_DAILY_PROVIDER_ROLLUPS, ANSWER_DAILY_ROLLUPS, rollupColumn } from './answer-rollups.table';

export type RollupGroup = 'day' | 'provider' | 'query';

/** The brand and the market of an answer filter. */
type MarketOf = Pick<AnswerFilter, 'organizationId' | 'brandId' | 'country' | 'language'>;

/** A row of rollup sums: the entity, the groups asked for and the counters asked for (all by default). */
export type RollupRow<K extends RollupCounter = RollupCounter> = Pick<EntitySums, K> & {
  entityId: string;
  day?: DayKey;
  provider?: string;
  query?: string;
};

/**
 * Each counter summed over the cells (SQL sum of an integer is a bigint: cast back), named as the
 * counter (`sum(rank_sum)::int AS "rankSum"`), so that pg's rows are RollupRows as they arrive.
 */
const sumOf = (k: RollupCounter) => {
  const column = rollupColumn(k);
  return `sum(${column})::${ANSWER_DAILY_ROLLUPS.columns[column] === 'integer' ? 'int' : 'float8'} AS "${k}"`;
};

/** ANSWER_FILTER_WHERE over the provider rollups, which have no prompt: only for a filter naming none ($6 null, checked). */
const PROVIDER_ROLLUPS_WHERE = ANSWER_FILTER_WHERE.replace('($6::bigint[] IS NULL OR prompt_id = ANY($6::bigint[]))', '$6::bigint[] IS NULL');
if (PROVIDER_ROLLUPS_WHERE === ANSWER_FILTER_WHERE) throw new Error('rollup-reads: the answer filter no longer has its prompt condition');

/**
 * Whether a read may sum `answer_daily_provider_rollups` (a tenth of the rows) instead of the
 * fine rollups: it names no prompt, groups by no query, and sums whole counters only. Whole
 * counters add up exactly in any order; the real ones (score_sum, visibility_sum) are summed
 * from the fine cells, as they always were, so that no figure moves by a rounding.
 */
export function readsProviderRollups(f: AnswerFilter, groups: readonly RollupGroup[], counters: readonly RollupCounter[]): boolean {
  return f.promptIds === undefined && !groups.includes('query') && counters.every((k) => ROLLUP_COUNTERS[k] === 'whole');
}

/** The statement behind RollupReads.sums (also run by the benchmark's bare server): the counters asked for, summed by the groups and entity. */
export function rollupSumsSql(f: AnswerFilter, groups: readonly RollupGroup[], counters: readonly RollupCounter[] = ROLLUP_COUNTER_NAMES): { text: string; params: unknown[] } {
  const columns = groups.map((g) => (g === 'day' ? `to_char(day, 'YYYY-MM-DD') AS day` : g));
  const groupBy = [...groups, 'entity_id'].join(', ');
  const [table, where] = readsProviderRollups(f, groups, counters) ? [ANSWER_DAILY_PROVIDER_ROLLUPS.table, PROVIDER_ROLLUPS_WHERE] : [ANSWER_DAILY_ROLLUPS.table, ANSWER_FILTER_WHERE];
  return {
    text: `SELECT ${[...columns, 'entity_id AS "entityId"'].join(', ')}, ${counters.map(sumOf).join(', ')} FROM ${table}
        WHERE ${where}
        GROUP BY ${groupBy}`,
    // A rollup cell of no market has '' (a key column): a market filter never selects it, as null rows elsewhere.
    params: answerFilterParams(f),
  };
}

/** The newest day with answers of a brand ($1 organisation, $2 brand) and market ($3 country, $4 language, null for any): `day`, or null. */
export const LATEST_DAY_SQL = `SELECT to_char(max(day), 'YYYY-MM-DD') AS day FROM answer_daily_rollups
        WHERE organization_id = $1 AND brand_id = $2 AND answers > 0 AND ($3::text IS NULL OR country = $3) AND ($4::text IS NULL OR language = $4)`;

/** The parameters of LATEST_DAY_SQL. */
export function latestDayParams(f: MarketOf): unknown[] {
  return [f.organizationId, f.brandId, f.country ?? null, f.language ?? null];
}

/** Sums of the daily rollups (DESIGN §14 figures re-aggregate from them exactly), grouped as asked, per entity. */
@Injectable()
export class RollupReads {
  constructor(
    private readonly dataSource: DataSource,
    @Optional() private readonly replica?: ReadReplica,
  ) {}

  /** Every counter, or only `counters` (a read that needs a few: fewer columns summed and sent, and the provider rollups when it may). */
  async sums(f: AnswerFilter, groups: readonly RollupGroup[]): Promise<RollupRow[]>;
  async sums<K extends RollupCounter>(f: AnswerFilter, groups: readonly RollupGroup[], counters: readonly K[]): Promise<RollupRow<K>[]>;
  async sums(f: AnswerFilter, groups: readonly RollupGroup[], counters: readonly RollupCounter[] = ROLLUP_COUNTER_NAMES): Promise<RollupRow<RollupCounter>[]> {
    const sql = rollupSumsSql(f, groups, counters);
    // A named prepared statement per shape (planned once per pooled connection), as the benchmark's bare server runs it.
    // Its columns are named as RollupRow's fields (a group absent when not asked for): no second object per row.
    return preparedQuery<RollupRow>(lagTolerantPool(this.dataSource, this.replica), sql.text, sql.params);
  }

  /** The newest day with answers of the brand (of the filter's market, when it names one), or null (a prepared statement, on the primary as before). */
  async latestDay(f: MarketOf): Promise<DayKey | null> {
    const [r] = await preparedQuery<{ day: string | null }>(poolOf(this.dataSource), LATEST_DAY_SQL, latestDayParams(f));
    return r?.day ?? null;
  }

  /**
   * The UTC day the brand's newest complete run started (status completed, or partial: it ended
   * with answers), or null: the day `sov/latest` reports, so that a run still in progress does
   * not stand for "the latest". With a market filter, the newest such run that asked for that market.
   */
  async latestCompleteRunDay(f: MarketOf): Promise<DayKey | null> {
    const [r]: { day: string }[] = await this.dataSource.query(
      `SELECT to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day FROM analysis_runs r
        WHERE organization_id = $1 AND brand_id = $2 AND status IN ('completed', 'partial') AND started_at IS NOT NULL
          AND ($3::text IS NULL AND $4::text IS NULL
               OR EXISTS (SELECT 1 FROM analysis_results a WHERE a.run_id = r.id AND ($3::text IS NULL OR a.country = $3) AND ($4::text IS NULL OR a.language = $4)))
        ORDER BY id DESC LIMIT 1`,
      [f.organizationId, f.brandId, f.country ?? null, f.language ?? null],
    );
    return r?.day ?? null;
  }
}
