/** How figures read: "no data" for a figure without a denominator (never 0), fixed decimals, UTC dates. */
export const NO_DATA = 'no data';

const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const dec1 = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export function count(v: number | null | undefined): string {
  return v === null || v === undefined || !Number.isFinite(v) ? NO_DATA : int.format(v);
}

/** A rate in 0-1 as a percentage with one decimal. */
export function pct(v: number | null | undefined): string {
  return v === null || v === undefined || !Number.isFinite(v) ? NO_DATA : `${dec1.format(v * 100)}%`;
}

/** A 95 % interval of a rate in 0-1. */
export function interval(low: number | null | undefined, high: number | null | undefined): string {
  if (low === null || low === undefined || high === null || high === undefined) return '';
  return `95% CI ${dec1.format(low * 100)}–${dec1.format(high * 100)}%`;
}

export function num(v: number | null | undefined, digits = 1): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return NO_DATA;
  return new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(v);
}

/** A signed change in percentage points (rates in 0-1). */
export function points(diff: number | null | undefined): string {
  if (diff === null || diff === undefined || !Number.isFinite(diff)) return NO_DATA;
  const v = diff * 100;
  return `${v > 0 ? '+' : v < 0 ? '−' : '±'}${dec1.format(Math.abs(v))} pts`;
}

export function signed(diff: number | null | undefined, digits = 1): string {
  if (diff === null || diff === undefined || !Number.isFinite(diff)) return NO_DATA;
  return `${diff > 0 ? '+' : diff < 0 ? '−' : '±'}${num(Math.abs(diff), digits)}`;
}

export function money(v: number | null | undefined, currency: string | null | undefined = 'USD'): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return NO_DATA;
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency || 'USD', maximumFractionDigits: 0 }).format(v);
}

export function pValue(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return 'p n/a';
  return p < 0.0001 ? 'p < 0.0001' : `p = ${p.toFixed(4)}`;
}

/** A date-time in UTC, "2026-10-02 12:00 UTC". */
export function dateTime(iso: string | null | undefined): string {
  if (!iso) return NO_DATA;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function date(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 10) : NO_DATA;
}

/** snake_case words as a label: "dropped_from_top3" → "dropped from top3". */
export function words(s: string | null | undefined): string {
  return (s ?? '').replace(/_/g, ' ');
}

export const PROVIDER_LABELS: Record<string, string> = { chatgpt: 'ChatGPT', claude: 'Claude', gemini: 'Gemini', perplexity: 'Perplexity' };
export const providerLabel = (p: string | null | undefined): string => (p ? (PROVIDER_LABELS[p] ?? p) : 'All providers');
