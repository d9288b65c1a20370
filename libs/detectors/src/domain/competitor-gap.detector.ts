import type { Counts } from '@libs/metrics';
import { type AnswerFact, candidates, type Detection, type DetectorInput, examples, scopeOf, short, span } from './answer-facts';
import { changeTest, pct, pText, severityOf, type ChangeTest } from './significance';
import { answersInScope, detectedCounts, scopeFromEvidence, verifyRecovery, type DetectorDefinition, type VerificationDecision } from './verification';

const brandCounts = (answers: readonly AnswerFact[]): Counts => ({ k: answers.filter((a) => a.brand.mentioned).length, n: answers.length });
const competitorCounts = (answers: readonly AnswerFact[], entityId: string): Counts => ({
  k: answers.filter((a) => a.competitors.some((c) => c.entityId === entityId && c.mentioned)).length,
  n: answers.length,
});

/** The competitor mentioned most often in the answers, and its counts. */
function leadingCompetitor(answers: readonly AnswerFact[]): { entityId: string; name: string; counts: Counts } | null {
  const names = new Map<string, string>();
  for (const a of answers) for (const c of a.competitors) names.set(c.entityId, c.name);
  let best: { entityId: string; name: string; counts: Counts } | null = null;
  for (const [entityId, name] of [...names].sort(([a], [b]) => a.localeCompare(b))) {
    const counts = competitorCounts(answers, entityId);
    if (!best || counts.k > best.counts.k) best = { entityId, name, counts };
  }
  return best;
}

/**
 * competitor_gap: for one prompt asked of one provider, in the recent answers a competitor is
 * mentioned significantly more often than the brand (its mention rate against the brand's over
 * the same answers).
 */
export const competitorGap: DetectorDefinition = {
  type: 'competitor_gap',
  detect(input: DetectorInput): Detection[] {
    const out: Detection[] = [];
    for (const { series: s, fingerprint, recent } of candidates(input, 'competitor_gap')) {
      const leader = leadingCompetitor(recent);
      if (!leader) continue;
      // "before": the brand's rate; "after": the competitor's: a significant rise is the gap.
      const test = changeTest(brandCounts(recent), leader.counts, 'rise', input.thresholds);
      if (test.notSignificant !== null) continue;
      out.push({
        type: 'competitor_gap',
        fingerprint,
        severity: severityOf(test.effect.cohensH ?? 0),
        title: `${leader.name} is mentioned ahead of ${input.brandName} on ${s.provider} for "${short(s.query)}"`,
        description: `Mention rate ${pct(test.before.value)} for ${input.brandName} against ${pct(test.after.value)} for ${leader.name} over the last ${recent.length} answers, p ${pText(test.test.pValue)}.`,
        evidence: {
          detector: 'competitor_gap',
          metric: 'mentionRate',
          scope: scopeOf(input.brandId, s),
          competitor: { entityId: leader.entityId, name: leader.name },
          brand: test.before,
          competitorRate: test.after,
          test: test.test,
          effect: test.effect,
          windows: { recent: span(recent) },
          examples: examples(recent, (a) => !a.brand.mentioned && a.competitors.some((c) => c.entityId === leader.entityId && c.mentioned)),
        },
      });
    }
    return out;
  },
  verify(evidence, after, t): VerificationDecision {
    const answers = answersInScope(after, scopeFromEvidence(evidence));
    const recovered = verifyRecovery('mentionRate', detectedCounts(evidence, 'brand'), brandCounts(answers), 'rise', t);
    if (recovered.status === 'passed') return recovered;
    const competitor = (evidence.competitor as { entityId?: string } | undefined)?.entityId;
    if (!competitor || answers.length < Math.max(t.minSamples, t.recentAnswers)) return recovered;
    // Enough answers: the gap closed (no longer significant) passes, a gap still there fails.
    const gap: ChangeTest = changeTest(brandCounts(answers), competitorCounts(answers, competitor), 'rise', t);
    const figures = `${pct(gap.before.value)} for the brand against ${pct(gap.after.value)} for the competitor (n ${answers.length}), p ${pText(gap.test.pValue)}`;
    return gap.notSignificant === null
      ? { status: 'failed', reason: `the gap is still there: ${figures}`, details: { ...recovered.details, gap } }
      : { status: 'passed', reason: `the gap closed: ${figures}`, details: { ...recovered.details, gap } };
  },
};
