import { tableShape, type ColumnType } from '@libs/projection-engine';
import { ROLLUP_COUNTER_NAMES, ROLLUP_COUNTERS, type RollupCounter } from '../domain/entity-sums';

/** A counter's name in snake_case: its column (`rankSum` → `rank_sum`). */
type Snake<S extends string> = S extends `${infer H}${infer T}` ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${Snake<T>}` : S;

export type RollupCounterColumn = Snake<RollupCounter>;

/** The column of a counter (`rankSum` → `rank_sum`). */
export const rollupColumn = <K extends RollupCounter>(counter: K): Snake<K> => counter.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) as Snake<K>;

/** The counter columns, in the counters' (stored) order. */
export const ROLLUP_COUNTER_COLUMNS: readonly RollupCounterColumn[] = Object.freeze(ROLLUP_COUNTER_NAMES.map(rollupColumn));

/** The cell of a rollup row: one brand, UTC day, provider, prompt and query, market, and tracked entity. */
export interface AnswerRollupCell {
  organization_id: number;
  client_id: number;
  brand_id: number;
  day: string;
  provider: string;
  prompt_id: number;
  query: string;
  /** The answer's market ('' when asked without one). */
  country: string;
  language: string;
  entity_id: string;
}

export type AnswerRollupRow = AnswerRollupCell & Record<RollupCounterColumn, number>;

/**
 * `answer_daily_rollups` (built by projections/visibility's answer-rollups projector, read by
 * RollupReads): a cell's counters, every column derived from ROLLUP_COUNTERS. A prompt of 0 is an
 * audit request's query; a client of 0, the organisation's own brand.
 */
export const ANSWER_DAILY_ROLLUPS = tableShape<AnswerRollupRow>({
  table: 'answer_daily_rollups',
  columns: {
    organization_id: 'bigint',
    client_id: 'bigint',
    brand_id: 'bigint',
    day: 'date',
    provider: 'text',
    prompt_id: 'bigint',
    query: 'text',
    country: 'text',
    language: 'text',
    entity_id: 'text',
    ...(Object.fromEntries(ROLLUP_COUNTER_NAMES.map((k) => [rollupColumn(k), ROLLUP_COUNTERS[k] === 'whole' ? 'integer' : 'float8'])) as Record<RollupCounterColumn, ColumnType>),
  },
  key: ['brand_id', 'day', 'provider', 'prompt_id', 'query', 'country', 'language', 'entity_id'],
});

/** The cell of a provider rollup row: a rollup cell without its prompt and query. */
export type AnswerProviderRollupCell = Omit<AnswerRollupCell, 'prompt_id' | 'query'>;

export type AnswerProviderRollupRow = AnswerProviderRollupCell & Record<RollupCounterColumn, number>;

/** The fine table's columns without prompt_id and query. */
const { prompt_id: _prompt, query: _query, ...PROVIDER_ROLLUP_COLUMNS } = ANSWER_DAILY_ROLLUPS.columns;

/**
 * `answer_daily_provider_rollups` (issue 33): the same counters one grain up, per brand, UTC day,
 * provider, market and tracked entity (no prompt, no query), about a tenth of the rows, for the
 * reads that name no prompt and group by no query (the year-long trends). The answer-rollups
 * projector writes both tables from the same deltas in the same transaction, so this table is
 * always `answer_daily_rollups` summed over prompt and query:
 *   SELECT organization_id, client_id, brand_id, day, provider, country, language, entity_id, sum(<counter>)…
 *     FROM answer_daily_rollups GROUP BY brand_id, day, provider, country, language, entity_id
 * (organization_id and client_id, the brand's, are one value per brand: min() of each), which is
 * how its migration backfills it and how a rebuild may derive it after the fine table. A cell whose
 * deltas cancel out is not written, so such a GROUP BY may hold cells of zero counters this table
 * lacks; every read sums counters, and the two agree. The real counters (score_sum, visibility_sum)
 * are summed in another order here than a GROUP BY of the fine cells would (equal to a rounding):
 * RollupReads reads them from the fine table only (readsProviderRollups).
 */
export const ANSWER_DAILY_PROVIDER_ROLLUPS = tableShape<AnswerProviderRollupRow>({
  table: 'answer_daily_provider_rollups',
  columns: PROVIDER_ROLLUP_COLUMNS,
  key: ['brand_id', 'day', 'provider', 'country', 'language', 'entity_id'],
});

/** A rollup table's cell columns (every column but the counters), in the table's column order. */
export function rollupCellColumns(table: { columns: Record<string, unknown> }): string[] {
  return Object.keys(table.columns).filter((c) => !(ROLLUP_COUNTER_COLUMNS as readonly string[]).includes(c));
}
