import type { Counts } from '@libs/metrics';
import { type AnswerFact, candidates, type Contradiction, type Detection, type DetectorInput, examples, scopeOf, short, span } from './answer-facts';
import { changeTest, cohensH, evidenceRate, pct, pText, severityOf } from './significance';
import { answersInScope, detectedCounts, scopeFromEvidence, type DetectorDefinition } from './verification';

const contradicting = (answers: readonly AnswerFact[]): Counts => ({ k: answers.filter((a) => a.contradictions.length > 0).length, n: answers.length });

/** The distinct wrong claims among the answers (fact, what was claimed, what is registered), with how many answers make each. */
export function wrongClaims(answers: readonly AnswerFact[]): (Omit<Contradiction, 'sentence'> & { answers: number; sentence: string })[] {
  const byKey = new Map<string, Omit<Contradiction, 'sentence'> & { answers: number; sentence: string }>();
  for (const a of answers) {
    for (const c of a.contradictions) {
      const key = `${c.fact}\u0000${c.claimed}`;
      const known = byKey.get(key);
      if (known) known.answers++;
      else byKey.set(key, { fact: c.fact, claimed: c.claimed, expected: c.expected, sentence: c.sentence, answers: 1 });
    }
  }
  return [...byKey.values()].sort((a, b) => b.answers - a.answers || a.fact.localeCompare(b.fact));
}

/**
 * misinformation: for one prompt asked of one provider, at least `minContradictions` of the recent
 * answers make a claim that contradicts the brand's registered facts (founding year, starting
 * price, headquarters). Severity follows the share of recent answers that do.
 */
export const misinformation: DetectorDefinition = {
  type: 'misinformation',
  detect(input: DetectorInput): Detection[] {
    const out: Detection[] = [];
    for (const { series: s, fingerprint, recent } of candidates(input, 'misinformation')) {
      const counts = contradicting(recent);
      if (counts.k < input.thresholds.minContradictions) continue;
      const share = evidenceRate(counts);
      const claims = wrongClaims(recent);
      out.push({
        type: 'misinformation',
        fingerprint,
        severity: severityOf(cohensH(0, share.value!)),
        title: `${s.provider} contradicts ${input.brandName}'s facts for "${short(s.query)}"`,
        description: `${counts.k} of the last ${counts.n} answers contradict a registered fact: ${claims
          .slice(0, 3)
          .map((c) => `${c.fact} "${c.claimed}" (registered: "${c.expected}")`)
          .join('; ')}.`,
        evidence: {
          detector: 'misinformation',
          metric: 'contradictionRate',
          scope: scopeOf(input.brandId, s),
          after: share,
          claims,
          test: { name: 'count of contradicting answers at least minContradictions', minContradictions: input.thresholds.minContradictions, pValue: null },
          windows: { recent: span(recent) },
          examples: examples(recent, (a) => a.contradictions.length > 0),
        },
      });
    }
    return out;
  },
  verify(evidence, after, t) {
    const counts = contradicting(answersInScope(after, scopeFromEvidence(evidence)));
    const detected = detectedCounts(evidence);
    const need = Math.max(t.minSamples, t.recentAnswers);
    const dropped = detected ? changeTest(detected, counts, 'drop', t) : null;
    const details = { metric: 'contradictionRate', atDetection: detected && evidenceRate(detected), afterFix: evidenceRate(counts), test: dropped?.test ?? null, needed: need };
    const figures = `${counts.k} of ${counts.n} answers after the fix contradict a registered fact${dropped ? ` (${pct(dropped.before.value)} at detection, p ${pText(dropped.test.pValue)})` : ''}`;
    if (dropped?.notSignificant === null || (counts.k === 0 && counts.n >= need)) return { status: 'passed', reason: `corrected: ${figures}`, details };
    if (counts.n >= need || counts.k >= t.minContradictions) return { status: 'failed', reason: `still wrong: ${figures}`, details };
    return { status: 'waiting', reason: `${counts.n} of ${need} answers after the fix: ${figures}`, details };
  },
};
