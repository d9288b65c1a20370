import { normalCdf } from './normal';
import type { Counts } from './rate';

/** A before/after comparison of two rates. */
export interface TwoProportionTest {
  /** after - before (rates), or null when either side has n = 0. */
  difference: number | null;
  /** The pooled z statistic, or null when it is undefined (a side with n = 0, or a pooled rate of 0 or 1). */
  z: number | null;
  /** Two-sided p-value of "the two rates are equal", or null with z. */
  pValue: number | null;
}

/**
 * The two-proportion z-test with a pooled standard error: is the "after" rate different from the
 * "before" rate? Meant for large-sample comparisons (each side's expected successes and failures
 * at least about 5); for smaller samples treat the p-value as a rough guide.
 */
export function twoProportionTest(before: Counts, after: Counts): TwoProportionTest {
  if (before.n === 0 || after.n === 0) return { difference: null, z: null, pValue: null };
  const p1 = before.k / before.n;
  const p2 = after.k / after.n;
  const pooled = (before.k + after.k) / (before.n + after.n);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / before.n + 1 / after.n));
  if (se === 0) return { difference: p2 - p1, z: null, pValue: null };
  const z = (p2 - p1) / se;
  return { difference: p2 - p1, z, pValue: Math.min(1, 2 * (1 - normalCdf(Math.abs(z)))) };
}
