import { rate, twoProportionTest, type Counts, type Rate } from '@libs/metrics';
import type { Severity } from './answer-facts';
import type { Thresholds } from './thresholds';

export const TEST_NAME = 'two-proportion z-test (pooled, two-sided)';

/** A rate as evidence shows it: k, n, the value and its 95 % Wilson interval. */
export type EvidenceRate = Rate & { k: number };
export const evidenceRate = (c: Counts): EvidenceRate => ({ k: c.k, ...rate(c.k, c.n) });

/** Cohen's h, the effect size of a difference of two proportions (0.2 small, 0.5 medium, 0.8 large). */
export function cohensH(p1: number, p2: number): number {
  return Math.abs(2 * Math.asin(Math.sqrt(p2)) - 2 * Math.asin(Math.sqrt(p1)));
}

/** Severity from the effect size: h < 0.2 low, < 0.5 medium, < 0.8 high, else critical. */
export function severityOf(h: number): Severity {
  if (h >= 0.8) return 'critical';
  if (h >= 0.5) return 'high';
  if (h >= 0.2) return 'medium';
  return 'low';
}

export interface ChangeTest {
  before: EvidenceRate;
  after: EvidenceRate;
  test: { name: string; z: number | null; pValue: number | null; alpha: number; minSamples: number };
  effect: { difference: number | null; cohensH: number | null };
  /** Why it is not a significant change in the direction asked (null when it is). */
  notSignificant: 'too_small_sample' | 'wrong_direction' | 'too_small_effect' | 'not_significant' | null;
}

/**
 * Is `after` significantly lower (`direction: 'drop'`) or higher (`'rise'`) than `before`? Both
 * sides need at least `minSamples`; the difference at least `minEffect`; p below `alpha`. A pooled
 * rate of 0 or 1 (every answer alike on both sides) has no variance: not significant.
 */
export function changeTest(before: Counts, after: Counts, direction: 'drop' | 'rise', t: Pick<Thresholds, 'alpha' | 'minSamples' | 'minEffect'>): ChangeTest {
  const result = twoProportionTest(before, after);
  const b = evidenceRate(before);
  const a = evidenceRate(after);
  const h = b.value !== null && a.value !== null ? cohensH(b.value, a.value) : null;
  const base: Omit<ChangeTest, 'notSignificant'> = {
    before: b,
    after: a,
    test: { name: TEST_NAME, z: result.z, pValue: result.pValue, alpha: t.alpha, minSamples: t.minSamples },
    effect: { difference: result.difference, cohensH: h },
  };
  if (before.n < t.minSamples || after.n < t.minSamples) return { ...base, notSignificant: 'too_small_sample' };
  const d = result.difference ?? 0;
  if ((direction === 'drop' && d >= 0) || (direction === 'rise' && d <= 0)) return { ...base, notSignificant: 'wrong_direction' };
  if (Math.abs(d) < t.minEffect) return { ...base, notSignificant: 'too_small_effect' };
  if (result.pValue === null || result.pValue >= t.alpha) return { ...base, notSignificant: 'not_significant' };
  return { ...base, notSignificant: null };
}

export const pct = (v: number | null) => (v === null ? 'n/a' : `${Math.round(v * 1000) / 10}%`);
export const pText = (p: number | null) => (p === null ? 'n/a' : p < 0.0001 ? '< 0.0001' : p.toFixed(4));
