import { OptionUnit } from './option-units';

export interface PositionedMention {
  readonly entityIndex: number;
  readonly start: number;
  readonly end: number;
}

/**
 * The option units of structures that list options: at least two units, and the leads of at least half of them
 * (and at least two) name a tracked entity. `units` sorted by start (as findOptionUnits returns them), `mentions` by
 * start (as findMentions returns them); the result keeps the units' order. Counts per structure live in plain arrays
 * indexed by the structure's number (no map, no sort).
 */
export function selectOptionStructures(units: readonly OptionUnit[], mentions: readonly PositionedMention[]): OptionUnit[] {
  if (units.length === 0) return [];
  let maxStructure = 0;
  for (const u of units) if (u.structure > maxStructure) maxStructure = u.structure;
  const count = new Array<number>(maxStructure + 1).fill(0);
  const named = new Array<number>(maxStructure + 1).fill(0);
  for (const u of units) {
    count[u.structure]++;
    if (u.leadEnd > u.start && hasMentionIn(mentions, u.start, u.leadEnd)) named[u.structure]++;
  }
  const selected: OptionUnit[] = [];
  for (const u of units) {
    const g = u.structure;
    if (count[g] >= 2 && named[g] >= 2 && named[g] * 2 >= count[g]) selected.push(u);
  }
  return selected;
}

function hasMentionIn(sorted: readonly PositionedMention[], start: number, end: number): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid].start < start) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo].end <= end;
}

/**
 * Orders the mentioned entities: by the first option unit that names them (outermost unit where units nest), then by
 * where in that unit; entities named only outside the options follow, by first occurrence. With no option structure
 * this is the order of first occurrence. `mentions` sorted by start. Returns entity indexes, best placed first.
 */
export function rankEntities(optionUnits: readonly OptionUnit[], mentions: readonly PositionedMention[]): number[] {
  const order: number[] = [];
  if (mentions.length === 0) return order;
  // Disjoint intervals, each held by its outermost unit, in order: their ends (starts read from the units).
  const intervalStart: number[] = [];
  const intervalEnd: number[] = [];
  for (const u of optionUnits) {
    const n = intervalEnd.length;
    if (n > 0 && u.start < intervalEnd[n - 1]) continue;
    intervalStart.push(u.start);
    intervalEnd.push(u.end);
  }
  let entityCount = 0;
  for (const m of mentions) if (m.entityIndex >= entityCount) entityCount = m.entityIndex + 1;
  // Per entity: the interval placing it (MAX when none) and the position deciding within it (else its first offset).
  const interval = new Array<number>(entityCount).fill(-1);
  const position = new Array<number>(entityCount).fill(0);
  let k = 0;
  for (const m of mentions) {
    const e = m.entityIndex;
    if (interval[e] === -1) {
      order.push(e);
      interval[e] = Number.MAX_SAFE_INTEGER;
      position[e] = m.start;
    }
    while (k < intervalEnd.length && intervalEnd[k] <= m.start) k++;
    if (k < intervalEnd.length && intervalStart[k] <= m.start && m.start < intervalEnd[k] && interval[e] === Number.MAX_SAFE_INTEGER) {
      interval[e] = k;
      position[e] = m.start;
    }
  }
  return order.sort((a, b) => interval[a] - interval[b] || position[a] - position[b]);
}
