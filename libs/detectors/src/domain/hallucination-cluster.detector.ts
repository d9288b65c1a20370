import { createHash } from 'node:crypto';
import { examples, fingerprintOf, judged, span, windows, type AnswerFact, type Detection, type DetectorInput, type Series, type Severity } from './answer-facts';
import { evidenceRate, pct } from './significance';
import type { DetectorDefinition } from './verification';

const norm = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
const claimKey = (fact: string, claimed: string) => `${fact}=${createHash('sha256').update(norm(claimed)).digest('hex').slice(0, 16)}`;
const repeats = (a: AnswerFact, fact: string, claimed: string) => a.contradictions.some((c) => c.fact === fact && norm(c.claimed) === norm(claimed));

/** Severity from the claim's spread: one provider medium, two high, three or more critical. */
function spreadSeverity(providers: number): Severity {
  return providers >= 3 ? 'critical' : providers === 2 ? 'high' : 'medium';
}

/**
 * hallucination_cluster: the same wrong claim about the brand (one registered fact, one claimed
 * value) in the recent answers of at least `clusterMinSeries` series: across providers or prompts,
 * the engines repeat one hallucination. One opportunity per claim, whatever the series.
 */
export const hallucinationCluster: DetectorDefinition = {
  type: 'hallucination_cluster',
  detect(input: DetectorInput): Detection[] {
    const clusters = new Map<string, { fact: string; claimed: string; expected: string; series: Series[]; answers: AnswerFact[]; judged: boolean }>();
    for (const s of input.series) {
      const { recent } = windows(s.answers, input.thresholds);
      const seen = new Set<string>();
      for (const a of recent) {
        for (const c of a.contradictions) {
          const key = claimKey(c.fact, c.claimed);
          let cluster = clusters.get(key);
          if (!cluster) clusters.set(key, (cluster = { fact: c.fact, claimed: c.claimed, expected: c.expected, series: [], answers: [], judged: false }));
          cluster.answers.push(a);
          if (!seen.has(key)) {
            seen.add(key);
            cluster.series.push(s);
            cluster.judged ||= judged(s, input.runIds);
          }
        }
      }
    }
    const out: Detection[] = [];
    for (const [key, c] of [...clusters].sort(([a], [b]) => a.localeCompare(b))) {
      if (!c.judged || c.series.length < input.thresholds.clusterMinSeries) continue;
      const fingerprint = fingerprintOf('hallucination_cluster', input.brandId, key, 'all');
      if (input.openFingerprints.has(fingerprint)) continue;
      const providers = [...new Set(c.series.map((s) => s.provider))].sort();
      const prompts = new Set(c.series.map((s) => s.key)).size;
      const answers = c.answers.sort((a, b) => a.askedAt.localeCompare(b.askedAt));
      const recentAnswers = c.series.reduce((n, s) => n + windows(s.answers, input.thresholds).recent.length, 0);
      out.push({
        type: 'hallucination_cluster',
        fingerprint,
        severity: spreadSeverity(providers.length),
        title: `The same wrong ${c.fact} of ${input.brandName} ("${c.claimed}") across ${providers.length} provider(s) and ${prompts} prompt(s)`,
        description: `${answers.length} recent answers in ${c.series.length} series claim ${c.fact} "${c.claimed}"; the registered fact is "${c.expected}".`,
        evidence: {
          detector: 'hallucination_cluster',
          metric: 'answersRepeatingClaim',
          scope: { brandId: input.brandId, promptId: null, query: null, provider: null },
          claim: { fact: c.fact, claimed: c.claimed, expected: c.expected },
          providers,
          series: c.series.map((s) => ({ promptId: s.promptId, query: s.query, provider: s.provider })),
          after: evidenceRate({ k: answers.length, n: recentAnswers }),
          test: { name: 'series repeating the claim at least clusterMinSeries', series: c.series.length, clusterMinSeries: input.thresholds.clusterMinSeries, pValue: null },
          windows: { recent: span(answers) },
          examples: examples(answers),
        },
      });
    }
    return out;
  },
  verify(evidence, after, t) {
    const claim = evidence.claim as { fact?: string; claimed?: string } | undefined;
    const listed = (evidence.series as { promptId: number | null; query: string; provider: string }[] | undefined) ?? [];
    const inCluster = (s: Series) => listed.some((l) => l.provider === s.provider && (l.promptId !== null ? l.promptId === s.promptId : s.promptId === null && l.query === s.query));
    const answers = after.filter(inCluster).flatMap((s) => s.answers);
    const need = Math.max(t.minSamples, t.recentAnswers);
    if (!claim?.fact || typeof claim.claimed !== 'string') return { status: 'waiting', reason: 'the claim is not in the evidence', details: {} };
    const k = answers.filter((a) => repeats(a, claim.fact!, claim.claimed!)).length;
    const repeated = evidenceRate({ k, n: answers.length });
    const details = { metric: 'answersRepeatingClaim', afterFix: repeated, needed: need };
    const figures = `${k} of ${answers.length} answers of the cluster's series repeat the claim after the fix (${pct(repeated.value)})`;
    if (answers.length < need) return k >= t.minContradictions ? { status: 'failed', reason: `repeated again: ${figures}`, details } : { status: 'waiting', reason: `${answers.length} of ${need} answers after the fix`, details };
    return k === 0 ? { status: 'passed', reason: `no longer claimed: ${figures}`, details } : { status: 'failed', reason: `still claimed: ${figures}`, details };
  },
};
