import { OptionUnit } from './option-units';

export interface PositionedMention {
  readonly entityIndex: number;
  readonly start: number;
  readonly end: number;
}

/**
 * The option units of structures that list options: at least two units, and the leads of at least half of them
 * (and at least two) name a tracked entity.
 */
export function selectOptionStructures(units: readonly OptionUnit[], mentions: readonly PositionedMention[]): OptionUnit[] {
  const byStructure = new Map<string, { units: OptionUnit[]; named: number }>();
  const sortedMentions = [...mentions].sort((a, b) => a.start - b.start);
  for (const u of units) {
    let g = byStructure.get(u.structure);
    if (g === undefined) {
      g = { units: [], named: 0 };
      byStructure.set(u.structure, g);
    }
    g.units.push(u);
    if (u.leadEnd > u.start && hasMentionIn(sortedMentions, u.start, u.leadEnd)) g.named++;
  }
  const selected: OptionUnit[] = [];
  for (const g of byStructure.values()) {
    if (g.units.length >= 2 && g.named >= 2 && g.named * 2 >= g.units.length) selected.push(...g.units);
  }
  return selected.sort((a, b) => a.start - b.start || b.end - a.end);
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
 * this is the order of first occurrence. Returns entity indexes, best placed first.
 */
export function rankEntities(optionUnits: readonly OptionUnit[], mentions: readonly PositionedMention[]): number[] {
  // Disjoint intervals, each held by its outermost unit, in order.
  const intervals: { start: number; end: number }[] = [];
  for (const u of optionUnits) {
    const last = intervals[intervals.length - 1];
    if (last !== undefined && u.start < last.end) continue;
    intervals.push({ start: u.start, end: u.end });
  }
  const sorted = [...mentions].sort((a, b) => a.start - b.start);
  const place = new Map<number, { interval: number; position: number }>();
  const first = new Map<number, number>();
  let k = 0;
  for (const m of sorted) {
    if (!first.has(m.entityIndex)) first.set(m.entityIndex, m.start);
    while (k < intervals.length && intervals[k].end <= m.start) k++;
    if (k < intervals.length && intervals[k].start <= m.start && m.start < intervals[k].end && !place.has(m.entityIndex)) {
      place.set(m.entityIndex, { interval: k, position: m.start });
    }
  }
  const entities = [...first.keys()];
  const key = (e: number): [number, number] => {
    const p = place.get(e);
    return p !== undefined ? [p.interval, p.position] : [Number.MAX_SAFE_INTEGER, first.get(e) ?? 0];
  };
  return entities.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka[0] - kb[0] || ka[1] - kb[1];
  });
}
