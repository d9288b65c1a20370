/**
 * Which vertical each labelled answer belongs to, and which verticals the sentiment rules were
 * fitted on. Held-out figures (`npm run eval:answers`) are reported for the verticals the rules
 * were never tuned on; a vertical used for tuning must be added to TUNED_VERTICALS, and then only
 * counts under "tuned".
 */

/** The dev corpus (../shared/corpus/answers-dev.jsonl) by answer number: its ten verticals. */
const DEV_RANGES: readonly [number, number, string][] = [
  [1, 5, 'crm'],
  [6, 10, 'project-management'],
  [11, 15, 'running-shoes'],
  [16, 20, 'coffee-machines'],
  [21, 25, 'vpn'],
  [26, 30, 'password-managers'],
  [31, 35, 'email-marketing'],
  [36, 40, 'electric-cars'],
  [41, 45, 'meal-kits'],
  [46, 50, 'banking'],
];
/** d051-d062 revisit the ten, in this order. */
const DEV_LATER = ['crm', 'project-management', 'running-shoes', 'coffee-machines', 'vpn', 'password-managers', 'email-marketing', 'email-marketing', 'electric-cars', 'meal-kits', 'banking', 'banking'];

/** The verticals the sentiment rules were developed on (the dev corpus's): the rest are held out. */
export const TUNED_VERTICALS: ReadonlySet<string> = new Set(DEV_RANGES.map(([, , v]) => v));

/** The vertical of a dev-corpus answer (`d017` → coffee-machines), or null for another id. */
export function devVertical(id: string): string | null {
  const m = /^d(\d{3})$/.exec(id);
  if (!m) return null;
  const n = Number(m[1]);
  for (const [from, to, vertical] of DEV_RANGES) if (n >= from && n <= to) return vertical;
  return DEV_LATER[n - 51] ?? null;
}
