import type { Counts } from '@libs/metrics';
import { examples, fingerprintOf, judged, scopeOf, span, windows, type AnswerFact, type Detection, type DetectorInput } from './answer-facts';
import { changeTest, pct, pText, severityOf } from './significance';
import { answersInScope, detectedCounts, scopeFromEvidence, verifyRecovery, type DetectorDefinition } from './verification';

/** Share of voice (DESIGN §14): the brand's mentions / the mentions of every tracked entity, in the same answers. */
const sovCounts = (answers: readonly AnswerFact[]): Counts => answers.reduce((c, a) => ({ k: c.k + a.brand.mentions, n: c.n + a.totalMentions }), { k: 0, n: 0 });

/**
 * sov_drop: on one provider, over every prompt (each prompt's recent answers against its
 * baseline), the brand's share of voice fell significantly. The sample is the mentions.
 */
export const sovDrop: DetectorDefinition = {
  type: 'sov_drop',
  detect(input: DetectorInput): Detection[] {
    const providers = [...new Set(input.series.map((s) => s.provider))].sort();
    const out: Detection[] = [];
    for (const provider of providers) {
      const series = input.series.filter((s) => s.provider === provider);
      if (!series.some((s) => judged(s, input.runIds))) continue;
      const fingerprint = fingerprintOf('sov_drop', input.brandId, 'all', provider);
      if (input.openFingerprints.has(fingerprint)) continue;
      const split = series.map((s) => windows(s.answers, input.thresholds));
      const baseline = split.flatMap((w) => w.baseline);
      const recent = split.flatMap((w) => w.recent).sort((a, b) => a.askedAt.localeCompare(b.askedAt));
      const test = changeTest(sovCounts(baseline), sovCounts(recent), 'drop', input.thresholds);
      if (test.notSignificant !== null) continue;
      out.push({
        type: 'sov_drop',
        fingerprint,
        severity: severityOf(test.effect.cohensH ?? 0),
        title: `${input.brandName}'s share of voice dropped on ${provider}`,
        description: `Share of voice ${pct(test.before.value)} (n ${test.before.n} mentions) → ${pct(test.after.value)} (n ${test.after.n}), p ${pText(test.test.pValue)}, over ${series.length} prompts.`,
        evidence: {
          detector: 'sov_drop',
          metric: 'shareOfVoice',
          scope: scopeOf(input.brandId, null, provider),
          prompts: series.length,
          before: test.before,
          after: test.after,
          test: test.test,
          effect: test.effect,
          windows: { baseline: span(baseline), recent: span(recent) },
          examples: examples(recent, (a) => !a.brand.mentioned && a.totalMentions > 0),
        },
      });
    }
    return out;
  },
  verify(evidence, after, t) {
    return verifyRecovery('shareOfVoice', detectedCounts(evidence), sovCounts(answersInScope(after, scopeFromEvidence(evidence))), 'rise', t);
  },
};
