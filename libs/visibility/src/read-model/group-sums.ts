import { addSumsInto, EMPTY_SUMS, type EntitySums } from '../domain/entity-sums';
import type { RollupRow } from './rollup-reads';

/** Rollup rows grouped by a key (a day, a provider, …), each group's sums by entity. */
export function groupSums(rows: readonly RollupRow[], keyOf: (row: RollupRow) => string): Map<string, Map<string, EntitySums>> {
  const groups = new Map<string, Map<string, EntitySums>>();
  for (const row of rows) {
    const key = keyOf(row);
    let byEntity = groups.get(key);
    if (!byEntity) groups.set(key, (byEntity = new Map()));
    const sums = byEntity.get(row.entityId);
    if (sums) addSumsInto(sums, row);
    else byEntity.set(row.entityId, addSumsInto({ ...EMPTY_SUMS }, row));
  }
  return groups;
}

/** One entity's sums in a group, zero when it has none. */
export function sumsOf(byEntity: ReadonlyMap<string, EntitySums> | undefined, entityId: string): EntitySums {
  return byEntity?.get(entityId) ?? { ...EMPTY_SUMS };
}
