/** z for a two-sided 95 % interval (the 0.975 quantile of the standard normal). */
export const Z95 = 1.959963984540054;

/** A rate as every response gives it (DESIGN §14): value, its denominator and a 95 % Wilson interval. */
export interface Rate {
  /** k / n, or null when n = 0 (never 0 for "no data"). */
  value: number | null;
  /** The denominator. */
  n: number;
  low: number | null;
  high: number | null;
}

function assertCounts(k: number, n: number): void {
  if (!Number.isFinite(k) || !Number.isFinite(n) || k < 0 || n < 0 || k > n) throw new RangeError(`A rate needs 0 <= k <= n (k = ${k}, n = ${n})`);
}

/**
 * The Wilson score interval of k successes in n trials (Wilson 1927), or null when n = 0. Unlike the
 * normal approximation it stays inside [0, 1] and is honest for small n and for k near 0 or n.
 */
export function wilsonInterval(k: number, n: number, z: number = Z95): { low: number; high: number } | null {
  assertCounts(k, n);
  if (n === 0) return null;
  const p = k / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // Clamp the rounding at the ends: k = 0 gives exactly 0, k = n exactly 1.
  return { low: k === 0 ? 0 : Math.max(0, centre - half), high: k === n ? 1 : Math.min(1, centre + half) };
}

/** k of n as a Rate: value, n and the 95 % Wilson interval; all null (with n: 0) when there is no denominator. */
export function rate(k: number, n: number): Rate {
  const interval = wilsonInterval(k, n);
  if (interval === null) return { value: null, n: 0, low: null, high: null };
  return { value: k / n, n, low: interval.low, high: interval.high };
}

/** Numerator and denominator, the form read models keep (never ratios), so periods re-aggregate exactly. */
export interface Counts {
  k: number;
  n: number;
}

/** Adds counts (several days, providers or prompts into one). */
export function sumCounts(parts: Iterable<Counts>): Counts {
  let k = 0;
  let n = 0;
  for (const c of parts) {
    k += c.k;
    n += c.n;
  }
  return { k, n };
}
