import type { Counts } from '@libs/metrics';
import { type AnswerFact, candidates, type Detection, type DetectorInput, examples, scopeOf, short, span } from './answer-facts';
import { changeTest, pct, pText, severityOf } from './significance';
import { answersInScope, detectedCounts, scopeFromEvidence, verifyRecovery, type DetectorDefinition } from './verification';

/** Citation rate (DESIGN §14): answers citing one of the brand's domains / answers citing anything. */
const citationCounts = (answers: readonly AnswerFact[]): Counts => {
  const withCitations = answers.filter((a) => a.withCitations);
  return { k: withCitations.filter((a) => a.cited).length, n: withCitations.length };
};

/** The competitors' domains cited in the answers that do not cite the brand, most cited first. */
function citedInstead(answers: readonly AnswerFact[]): { domain: string; answers: number }[] {
  const counts = new Map<string, number>();
  for (const a of answers) if (a.withCitations && !a.cited) for (const d of a.competitorDomains) counts.set(d, (counts.get(d) ?? 0) + 1);
  return [...counts].map(([domain, n]) => ({ domain, answers: n })).sort((a, b) => b.answers - a.answers || a.domain.localeCompare(b.domain)).slice(0, 5);
}

/**
 * missing_citation: for one prompt asked of one provider, the brand's citation rate fell
 * significantly: the engine stopped citing the brand's pages (and cites whose instead is in the
 * evidence). Read from the answers' citations (owner brand/competitor, as analysed).
 */
export const missingCitation: DetectorDefinition = {
  type: 'missing_citation',
  detect(input: DetectorInput): Detection[] {
    const out: Detection[] = [];
    for (const { series: s, fingerprint, baseline, recent } of candidates(input, 'missing_citation')) {
      const test = changeTest(citationCounts(baseline), citationCounts(recent), 'drop', input.thresholds);
      if (test.notSignificant !== null) continue;
      const instead = citedInstead(recent);
      out.push({
        type: 'missing_citation',
        fingerprint,
        severity: severityOf(test.effect.cohensH ?? 0),
        title: `${s.provider} stopped citing ${input.brandName} for "${short(s.query)}"`,
        description: `Citation rate ${pct(test.before.value)} (n ${test.before.n}) → ${pct(test.after.value)} (n ${test.after.n}), p ${pText(test.test.pValue)}${instead.length ? `; cited instead: ${instead.map((d) => d.domain).join(', ')}` : ''}.`,
        evidence: {
          detector: 'missing_citation',
          metric: 'citationRate',
          scope: scopeOf(input.brandId, s),
          before: test.before,
          after: test.after,
          citedInstead: instead,
          test: test.test,
          effect: test.effect,
          windows: { baseline: span(baseline), recent: span(recent) },
          examples: examples(recent, (a) => a.withCitations && !a.cited),
        },
      });
    }
    return out;
  },
  verify(evidence, after, t) {
    return verifyRecovery('citationRate', detectedCounts(evidence), citationCounts(answersInScope(after, scopeFromEvidence(evidence))), 'rise', t);
  },
};
