import type { Counts } from '@libs/metrics';
import { type AnswerFact, candidates, type Detection, type DetectorInput, examples, scopeOf, short, span } from './answer-facts';
import { changeTest, pct, pText, severityOf, type ChangeTest } from './significance';
import { answersInScope, detectedCounts, scopeFromEvidence, verifyRecovery, type DetectorDefinition } from './verification';

type Metric = 'positiveShare' | 'negativeShare';

/** Among the answers that mention the brand with a sentiment label: how many carry the label. */
function labelCounts(answers: readonly AnswerFact[], label: 'positive' | 'negative'): Counts {
  const labelled = answers.filter((a) => a.brand.mentioned && a.brand.sentiment !== null);
  return { k: labelled.filter((a) => a.brand.sentiment === label).length, n: labelled.length };
}

const METRICS: Record<Metric, { label: 'positive' | 'negative'; worse: 'drop' | 'rise'; better: 'drop' | 'rise' }> = {
  positiveShare: { label: 'positive', worse: 'drop', better: 'rise' },
  negativeShare: { label: 'negative', worse: 'rise', better: 'drop' },
};

/**
 * sentiment_drop: for one prompt asked of one provider, the brand's sentiment worsened
 * significantly: the share of its labelled answers that are positive fell, or the share that are
 * negative rose (the more significant of the two is reported).
 */
export const sentimentDrop: DetectorDefinition = {
  type: 'sentiment_drop',
  detect(input: DetectorInput): Detection[] {
    const out: Detection[] = [];
    for (const { series: s, fingerprint, baseline, recent } of candidates(input, 'sentiment_drop')) {
      let found: { metric: Metric; test: ChangeTest } | null = null;
      for (const metric of Object.keys(METRICS) as Metric[]) {
        const m = METRICS[metric];
        const test = changeTest(labelCounts(baseline, m.label), labelCounts(recent, m.label), m.worse, input.thresholds);
        if (test.notSignificant === null && (!found || (test.test.pValue ?? 1) < (found.test.test.pValue ?? 1))) found = { metric, test };
      }
      if (!found) continue;
      const { metric, test } = found;
      out.push({
        type: 'sentiment_drop',
        fingerprint,
        severity: severityOf(test.effect.cohensH ?? 0),
        title: `Sentiment about ${input.brandName} worsened on ${s.provider} for "${short(s.query)}"`,
        description: `${metric === 'positiveShare' ? 'Positive' : 'Negative'} share of labelled answers ${pct(test.before.value)} (n ${test.before.n}) → ${pct(test.after.value)} (n ${test.after.n}), p ${pText(test.test.pValue)}.`,
        evidence: {
          detector: 'sentiment_drop',
          metric,
          scope: scopeOf(input.brandId, s),
          before: test.before,
          after: test.after,
          test: test.test,
          effect: test.effect,
          windows: { baseline: span(baseline), recent: span(recent) },
          examples: examples(recent, (a) => a.brand.mentioned && a.brand.sentiment !== 'positive'),
        },
      });
    }
    return out;
  },
  verify(evidence, after, t) {
    const metric: Metric = evidence.metric === 'negativeShare' ? 'negativeShare' : 'positiveShare';
    const m = METRICS[metric];
    return verifyRecovery(metric, detectedCounts(evidence), labelCounts(answersInScope(after, scopeFromEvidence(evidence)), m.label), m.better, t);
  },
};
