/** A UTC calendar day as `YYYY-MM-DD`. */
export type DayKey = string;

const DAY_MS = 86_400_000;
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether the text is a real calendar day `YYYY-MM-DD` (2026-02-30 is not). */
export function isDayKey(text: string): boolean {
  const m = DAY_PATTERN.exec(text);
  if (!m) return false;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(t).toISOString().slice(0, 10) === text;
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
