import type { Counts } from '@libs/metrics';
import { type AnswerFact, candidates, type Detection, type DetectorInput, examples, scopeOf, short, span } from './answer-facts';
import { changeTest, pct, pText, severityOf } from './significance';
import { answersInScope, detectedCounts, scopeFromEvidence, verifyRecovery, type DetectorDefinition } from './verification';

const inTop3 = (a: AnswerFact) => a.brand.rank !== null && a.brand.rank <= 3;
const top3Counts = (answers: readonly AnswerFact[]): Counts => ({ k: answers.filter(inTop3).length, n: answers.length });

/**
 * dropped_from_top3: for one prompt asked of one provider, the share of answers ranking the brand
 * 1-3 fell significantly from the baseline window to the recent one.
 */
export const droppedFromTop3: DetectorDefinition = {
  type: 'dropped_from_top3',
  detect(input: DetectorInput): Detection[] {
    const out: Detection[] = [];
    for (const { series: s, fingerprint, baseline, recent } of candidates(input, 'dropped_from_top3')) {
      const test = changeTest(top3Counts(baseline), top3Counts(recent), 'drop', input.thresholds);
      if (test.notSignificant !== null) continue;
      out.push({
        type: 'dropped_from_top3',
        fingerprint,
        severity: severityOf(test.effect.cohensH ?? 0),
        title: `${input.brandName} dropped from the top 3 on ${s.provider} for "${short(s.query)}"`,
        description: `Top-3 rate ${pct(test.before.value)} (n ${test.before.n}) → ${pct(test.after.value)} (n ${test.after.n}), p ${pText(test.test.pValue)}.`,
        evidence: {
          detector: 'dropped_from_top3',
          metric: 'top3Rate',
          scope: scopeOf(input.brandId, s),
          before: test.before,
          after: test.after,
          test: test.test,
          effect: test.effect,
          windows: { baseline: span(baseline), recent: span(recent) },
          examples: examples(recent, (a) => !inTop3(a)),
        },
      });
    }
    return out;
  },
  verify(evidence, after, t) {
    return verifyRecovery('top3Rate', detectedCounts(evidence), top3Counts(answersInScope(after, scopeFromEvidence(evidence))), 'rise', t);
  },
};
