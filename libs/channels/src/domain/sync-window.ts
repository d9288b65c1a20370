import { addDays, daysBetween, type DayKey } from '@libs/metrics';

/**
 * The days a sync fetches: from the day after the cursor (the last day fully written), or, on the
 * first sync, `backfillDays` days back, up to yesterday (UTC; today is still incomplete). The last
 * `refreshDays` days before yesterday are fetched again, since sources revise recent days. Null
 * when there is nothing to fetch.
 */
export function syncWindow(opts: { cursor: DayKey | null; backfillDays: number; today: DayKey; refreshDays?: number }): { start: DayKey; end: DayKey } | null {
  const end = addDays(opts.today, -1);
  const refresh = opts.refreshDays ?? 0;
  let start = opts.cursor === null ? addDays(opts.today, -opts.backfillDays) : addDays(opts.cursor, 1);
  if (opts.cursor !== null && refresh > 0) {
    const refreshStart = addDays(end, -(refresh - 1));
    if (refreshStart < start) start = refreshStart;
  }
  return start > end ? null : { start, end };
}

/** A window cut into consecutive chunks of at most `size` days, oldest first (the cursor moves per chunk). */
export function chunks(window: { start: DayKey; end: DayKey }, size: number): { start: DayKey; end: DayKey }[] {
  const out: { start: DayKey; end: DayKey }[] = [];
  for (let start = window.start; start <= window.end; start = addDays(start, size)) {
    const end = addDays(start, size - 1);
    out.push({ start, end: end > window.end ? window.end : end });
  }
  return out;
}

export function windowDays(window: { start: DayKey; end: DayKey }): number {
  return daysBetween(window.start, window.end) + 1;
}
