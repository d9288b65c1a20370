import type { Counts } from '@libs/metrics';
import type { AnswerFact, Detection, DetectorInput, DetectorType, Series } from './answer-facts';
import { changeTest, pct, pText } from './significance';
import type { Thresholds } from './thresholds';

/** What a later run says about a deployed fix. */
export interface VerificationDecision {
  /** passed: a significant recovery; failed: enough answers and no recovery; waiting: not enough answers yet. */
  status: 'passed' | 'failed' | 'waiting';
  reason: string;
  details: Record<string, unknown>;
}

/** Which answers an opportunity is about (kept in its evidence as `scope`). */
export interface Scope {
  brandId: number;
  promptId: number | null;
  query: string | null;
  provider: string | null;
}

/** A detector: detection over the read-model figures, and the re-measurement of its problem after a fix. */
export interface DetectorDefinition {
  readonly type: DetectorType;
  detect(input: DetectorInput): Detection[];
  /** `after`: the brand's series holding only the answers recorded after the fix was deployed. */
  verify(evidence: Record<string, unknown>, after: readonly Series[], t: Thresholds): VerificationDecision;
}

export function scopeFromEvidence(evidence: Record<string, unknown>): Scope | null {
  const s = evidence.scope as Partial<Scope> | undefined;
  if (!s || typeof s !== 'object' || typeof s.brandId !== 'number') return null;
  return { brandId: s.brandId, promptId: typeof s.promptId === 'number' ? s.promptId : null, query: typeof s.query === 'string' ? s.query : null, provider: typeof s.provider === 'string' ? s.provider : null };
}

/** The answers of the series a scope names (a prompt and provider, or every prompt of a provider). */
export function answersInScope(series: readonly Series[], scope: Scope | null): AnswerFact[] {
  if (!scope) return series.flatMap((s) => s.answers);
  return series
    .filter((s) => (scope.provider === null || s.provider === scope.provider) && (scope.promptId !== null ? s.promptId === scope.promptId : scope.query === null || (s.promptId === null && s.query === scope.query)))
    .flatMap((s) => s.answers);
}

/** The counts a detection measured in its recent window (evidence `after`: k and n). */
export function detectedCounts(evidence: Record<string, unknown>, field = 'after'): Counts | null {
  const r = evidence[field] as { k?: unknown; n?: unknown } | undefined;
  return r && typeof r.k === 'number' && typeof r.n === 'number' ? { k: r.k, n: r.n } : null;
}

/**
 * A fix is verified when its metric recovered significantly from the level the detection measured
 * (`better`: the direction of a recovery); it failed when as many answers as the detection had
 * (at least minSamples) show no such recovery; until then it waits.
 */
export function verifyRecovery(metric: string, detected: Counts | null, after: Counts, better: 'rise' | 'drop', t: Thresholds): VerificationDecision {
  if (!detected) return { status: 'waiting', reason: `the detection's ${metric} is not in its evidence`, details: { metric } };
  const test = changeTest(detected, after, better, t);
  const need = Math.max(t.minSamples, detected.n);
  const details = { metric, atDetection: test.before, afterFix: test.after, test: test.test, effect: test.effect, needed: need };
  const figures = `${metric} ${pct(test.before.value)} (n ${detected.n}) at detection, ${pct(test.after.value)} (n ${after.n}) after the fix, p ${pText(test.test.pValue)}`;
  if (test.notSignificant === null) return { status: 'passed', reason: `recovered: ${figures}`, details };
  if (after.n >= need) return { status: 'failed', reason: `no significant recovery: ${figures}`, details };
  return { status: 'waiting', reason: `${after.n} of ${need} answers after the fix: ${figures}`, details };
}
