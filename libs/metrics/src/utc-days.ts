/** A UTC calendar day as `YYYY-MM-DD`. */
export type DayKey = string;

const DAY_MS = 86_400_000;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number of `length` ASCII digits at `from`, or -1. */
function digits(text: string, from: number, length: number): number {
  let n = 0;
  for (let i = from; i < from + length; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

/**
 * Whether the text is a real calendar day `YYYY-MM-DD` (2026-02-30 is not), in the proleptic
 * Gregorian calendar as Date has it, years 0100 to 9999. Read digit by digit: imports check every
 * row's date with it.
 */
export function isDayKey(text: string): boolean {
  if (text.length !== 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return false;
  const y = digits(text, 0, 4);
  const m = digits(text, 5, 2);
  const d = digits(text, 8, 2);
  if (y < 100 || m < 1 || m > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= (m === 2 && leap ? 29 : DAYS_IN_MONTH[m - 1]);
}

/** The UTC day an instant falls on. */
export function utcDay(at: Date | string | number): DayKey {
  return new Date(at).toISOString().slice(0, 10);
}

/** Midnight UTC at the start of the day. */
export function dayStart(day: DayKey): Date {
  if (!isDayKey(day)) throw new RangeError(`Not a day: ${day}`);
  return new Date(`${day}T00:00:00.000Z`);
}

/** The day `days` after (or before, when negative) the given one. */
export function addDays(day: DayKey, days: number): DayKey {
  return utcDay(dayStart(day).getTime() + days * DAY_MS);
}

/** Whole days from `from` to `to` (0 for the same day, negative when `to` is earlier). */
export function daysBetween(from: DayKey, to: DayKey): number {
  return Math.round((dayStart(to).getTime() - dayStart(from).getTime()) / DAY_MS);
}

/** The last few eachDay answers: a figures request asks for the same period once per series. */
const recentPeriods = new Map<string, readonly DayKey[]>();

/** Every day from `start` to `end`, both included (empty when end is before start). */
export function eachDay(start: DayKey, end: DayKey): DayKey[] {
  const key = `${start}/${end}`;
  let days = recentPeriods.get(key);
  if (!days) {
    const first = dayStart(start).getTime();
    const count = Math.round((dayStart(end).getTime() - first) / DAY_MS);
    const list: DayKey[] = [];
    for (let i = 0; i <= count; i++) list.push(new Date(first + i * DAY_MS).toISOString().slice(0, 10));
    days = Object.freeze(list);
    if (recentPeriods.size >= 32) recentPeriods.delete(recentPeriods.keys().next().value!);
    recentPeriods.set(key, days);
  }
  return [...days];
}
