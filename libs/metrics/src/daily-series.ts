import { rate, type Counts } from './rate';
import { eachDay, type DayKey } from './utc-days';

/** One point of a daily series (DESIGN §14): a day with no answers has n: 0 and null values. */
export interface SeriesPoint {
  date: DayKey;
  value: number | null;
  n: number;
  low: number | null;
  high: number | null;
}

/**
 * A daily rate series from `start` to `end` (UTC days, both included): every day is present, in
 * order; a day without counts is `{n: 0, value: null, low: null, high: null}`, so charts show the
 * gap instead of a false zero. Counts on days outside the period are ignored.
 */
export function dailyRateSeries(start: DayKey, end: DayKey, counts: ReadonlyMap<DayKey, Counts>): SeriesPoint[] {
  return eachDay(start, end).map((date) => {
    const c = counts.get(date);
    return { date, ...rate(c?.k ?? 0, c?.n ?? 0) };
  });
}

/**
 * A daily series of any figure with its own n (an average, a net sentiment): `valueOf` gives the
 * day's value and n, or undefined for a day without data; no interval (low/high null).
 */
export function dailySeries<T>(start: DayKey, end: DayKey, data: ReadonlyMap<DayKey, T>, valueOf: (item: T) => { value: number | null; n: number }): SeriesPoint[] {
  return eachDay(start, end).map((date) => {
    const item = data.get(date);
    const figure = item === undefined ? { value: null, n: 0 } : valueOf(item);
    return { date, value: figure.n === 0 ? null : figure.value, n: figure.n, low: null, high: null };
  });
}
