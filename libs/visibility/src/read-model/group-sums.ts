import { EMPTY_SUMS, ROLLUP_COUNTER_NAMES, type EntitySums, type RollupCounter } from '../domain/entity-sums';
import type { RollupRow } from './rollup-reads';

/** Rollup rows grouped by a key (a day, a provider, …), each group's sums by entity: of every counter, or of the `counters` the rows carry. */
export function groupSums(rows: readonly RollupRow[], keyOf: (row: RollupRow) => string): Map<string, Map<string, EntitySums>>;
export function groupSums<K extends RollupCounter>(rows: readonly RollupRow<K>[], keyOf: (row: RollupRow<K>) => string, counters: readonly K[]): Map<string, Map<string, Pick<EntitySums, K>>>;
export function groupSums(rows: readonly RollupRow<never>[], keyOf: (row: never) => string, counters: readonly RollupCounter[] = ROLLUP_COUNTER_NAMES): Map<string, Map<string, Partial<EntitySums>>> {
  const groups = new Map<string, Map<string, Partial<EntitySums>>>();
  for (const row of rows as readonly RollupRow[]) {
    const key = (keyOf as (row: RollupRow) => string)(row);
    let byEntity = groups.get(key);
    if (!byEntity) groups.set(key, (byEntity = new Map()));
    const sums = byEntity.get(row.entityId);
    if (sums) for (const k of counters) sums[k]! += row[k];
    else {
      const first: Partial<EntitySums> = {};
      for (const k of counters) first[k] = row[k];
      byEntity.set(row.entityId, first);
    }
  }
  return groups;
}

/** One entity's sums in a group, zero when it has none. */
export function sumsOf<K extends RollupCounter = RollupCounter>(byEntity: ReadonlyMap<string, Pick<EntitySums, K>> | undefined, entityId: string): Pick<EntitySums, K> {
  return byEntity?.get(entityId) ?? { ...EMPTY_SUMS };
}
