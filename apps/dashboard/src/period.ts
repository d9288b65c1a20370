/**
 * The period a view shows (`from`/`to` in the URL, UTC days, both included) and the previous
 * period of equal length it is compared with (DESIGN §15).
 */
export interface Period {
  from: string;
  to: string;
  days: number;
}

const DAY = 86_400_000;
export const PRESETS = [7, 30, 90] as const;
export const DEFAULT_DAYS = 30;
/** The longest period the API reads (days up to 365). */
export const MAX_DAYS = 365;

const isDay = (s: string | null): s is string => !!s && /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`));
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const msOf = (day: string): number => Date.parse(`${day}T00:00:00Z`);

export function today(): string {
  return dayOf(Date.now());
}

export function lastDays(days: number, end = today()): Period {
  return { from: dayOf(msOf(end) - (days - 1) * DAY), to: end, days };
}

/** The URL's period, or the last 30 days; a malformed or reversed one falls back too. */
export function periodOf(params: URLSearchParams): Period {
  const from = params.get('from');
  const to = params.get('to');
  if (isDay(from) && isDay(to) && msOf(from) <= msOf(to)) {
    const days = Math.round((msOf(to) - msOf(from)) / DAY) + 1;
    if (days <= MAX_DAYS) return { from, to, days };
  }
  return lastDays(DEFAULT_DAYS);
}

/** The period of equal length that ends the day before `p` starts. */
export function previous(p: Period): Period {
  return lastDays(p.days, dayOf(msOf(p.from) - DAY));
}

export const periodQuery = (p: Period) => ({ startDate: p.from, endDate: p.to });

/** Every UTC day of the period, in order. */
export function eachDayOf(p: Period): string[] {
  const out: string[] = [];
  for (let t = msOf(p.from); t <= msOf(p.to); t += DAY) out.push(dayOf(t));
  return out;
}

/**
 * The market the analytics reads are filtered by (`country`, `language` in the URL; DESIGN §17):
 * each part null when not set. Only well-formed values are taken (a country upper-cased, as the
 * API stores it); the API checks them fully, so an unknown code reads as a validation error there.
 */
export interface Market {
  country: string | null;
  language: string | null;
}

export function marketOf(params: URLSearchParams): Market {
  const country = params.get('country');
  const language = params.get('language');
  return {
    country: country && /^[A-Za-z]{2}$/.test(country) ? country.toUpperCase() : null,
    language: language && /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(language) ? language : null,
  };
}

/** The market's query parameters (a part not set is left out by `qs`). */
export const marketQuery = (m: Market) => ({ country: m.country, language: m.language });
