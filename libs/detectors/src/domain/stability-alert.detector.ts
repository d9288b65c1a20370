import { normalCdf, type Counts } from '@libs/metrics';
import { type AnswerFact, candidates, type Detection, type DetectorInput, examples, scopeOf, short, span } from './answer-facts';
import { cohensH, evidenceRate, pct, pText, severityOf } from './significance';
import { answersInScope, scopeFromEvidence, type DetectorDefinition } from './verification';

/** Flips of the brand's mention between consecutive answers / transitions. */
function flipCounts(answers: readonly AnswerFact[]): Counts {
  let k = 0;
  for (let i = 1; i < answers.length; i++) if (answers[i].brand.mentioned !== answers[i - 1].brand.mentioned) k++;
  return { k, n: Math.max(0, answers.length - 1) };
}

/** One-sided one-sample z-test of "the flip rate is above p0" (null when undefined). */
export function flipRateTest(flips: Counts, p0: number): { z: number | null; pValue: number | null } {
  if (flips.n === 0 || p0 <= 0 || p0 >= 1) return { z: null, pValue: null };
  const z = (flips.k / flips.n - p0) / Math.sqrt((p0 * (1 - p0)) / flips.n);
  return { z, pValue: 1 - normalCdf(z) };
}

/**
 * stability_alert: for one prompt asked of one provider, the answers flip-flop: the brand is
 * mentioned, then not, then again. Over the baseline and recent windows, the share of consecutive
 * answers that flip is significantly above `maxFlipRate` (one-sided z-test, p < alpha), with at
 * least `minSamples` transitions.
 */
export const stabilityAlert: DetectorDefinition = {
  type: 'stability_alert',
  detect(input: DetectorInput): Detection[] {
    const out: Detection[] = [];
    const t = input.thresholds;
    for (const { series: s, fingerprint, baseline, recent } of candidates(input, 'stability_alert')) {
      const answers = [...baseline, ...recent];
      const flips = flipCounts(answers);
      if (flips.n < t.minSamples) continue;
      const test = flipRateTest(flips, t.maxFlipRate);
      if (test.pValue === null || test.pValue >= t.alpha) continue;
      const flipRate = evidenceRate(flips);
      out.push({
        type: 'stability_alert',
        fingerprint,
        severity: severityOf(cohensH(t.maxFlipRate, flipRate.value!)),
        title: `Answers about ${input.brandName} flip-flop on ${s.provider} for "${short(s.query)}"`,
        description: `The brand's mention flipped in ${flips.k} of ${flips.n} consecutive answers (${pct(flipRate.value)}), above the ${pct(t.maxFlipRate)} allowed, p ${pText(test.pValue)}.`,
        evidence: {
          detector: 'stability_alert',
          metric: 'flipRate',
          scope: scopeOf(input.brandId, s),
          flipRate,
          after: flipRate,
          test: { name: 'one-sample z-test, flip rate above maxFlipRate (one-sided)', z: test.z, pValue: test.pValue, alpha: t.alpha, maxFlipRate: t.maxFlipRate, minSamples: t.minSamples },
          windows: { answers: span(answers) },
          examples: examples(answers),
        },
      });
    }
    return out;
  },
  verify(evidence, after, t) {
    const flips = flipCounts(answersInScope(after, scopeFromEvidence(evidence)).sort((a, b) => a.askedAt.localeCompare(b.askedAt)));
    const need = Math.max(t.minSamples, t.recentAnswers);
    const flipRate = evidenceRate(flips);
    const details = { metric: 'flipRate', afterFix: flipRate, maxFlipRate: t.maxFlipRate, needed: need };
    const figures = `${flips.k} flips in ${flips.n} transitions after the fix (${pct(flipRate.value)}; allowed ${pct(t.maxFlipRate)})`;
    if (flips.n < need) return { status: 'waiting', reason: `${flips.n} of ${need} transitions after the fix`, details };
    return flipRate.value! <= t.maxFlipRate ? { status: 'passed', reason: `stable again: ${figures}`, details } : { status: 'failed', reason: `still unstable: ${figures}`, details };
  },
};
