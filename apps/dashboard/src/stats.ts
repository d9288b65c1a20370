import { rate, twoProportionTest } from '@libs/metrics';

/** A rate as the API gives it (DESIGN §14). */
export interface RateFigure {
  value: number | null;
  n: number;
  low?: number | null;
  high?: number | null;
}

/** The successes behind a rate (value × n, whole). */
export const successes = (r: RateFigure): number => Math.round((r.value ?? 0) * r.n);

export interface Change {
  difference: number | null;
  pValue: number | null;
  /** p < 0.05 by DESIGN §14's two-proportion test; otherwise the change is shown plainly. */
  significant: boolean;
}

export const ALPHA = 0.05;

/** The change of a rate from the previous period, tested with the two-proportion z-test of libs/metrics. */
export function rateChange(before: RateFigure | null | undefined, after: RateFigure | null | undefined): Change {
  if (!before || !after || before.n === 0 || after.n === 0 || before.value === null || after.value === null) return { difference: null, pValue: null, significant: false };
  const t = twoProportionTest({ k: successes(before), n: before.n }, { k: successes(after), n: after.n });
  return { difference: t.difference, pValue: t.pValue, significant: t.pValue !== null && t.pValue < ALPHA };
}

/**
 * A change of net sentiment, tested as the sentiment detector tests it: the positive share and the
 * negative share of labelled answers, each by the two-proportion test; the more significant one speaks.
 */
export function sentimentChange(
  before: { netSentiment: { value: number | null; n: number }; positiveRate: RateFigure; negativeRate: RateFigure } | null | undefined,
  after: { netSentiment: { value: number | null; n: number }; positiveRate: RateFigure; negativeRate: RateFigure } | null | undefined,
): Change {
  if (!before || !after || before.netSentiment.value === null || after.netSentiment.value === null) return { difference: null, pValue: null, significant: false };
  const ps = [rateChange(before.positiveRate, after.positiveRate).pValue, rateChange(before.negativeRate, after.negativeRate).pValue].filter((p): p is number => p !== null);
  const p = ps.length ? Math.min(...ps) : null;
  return { difference: after.netSentiment.value - before.netSentiment.value, pValue: p, significant: p !== null && p < ALPHA };
}

/** Counts summed over daily points `{value, n}` (k = value × n): a period's share from a daily series, with its Wilson interval. */
export function sumSeries(points: readonly { value: number | null; n: number }[]): RateFigure {
  let k = 0;
  let n = 0;
  for (const p of points) {
    if (p.n === 0 || p.value === null) continue;
    k += Math.round(p.value * p.n);
    n += p.n;
  }
  return rate(k, n);
}
