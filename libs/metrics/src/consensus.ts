/** Half-life of a citation's weight in the consensus score, in days. */
export const CONSENSUS_HALF_LIFE_DAYS = 7;

/** The weight of a citation `ageDays` old: 0.5^(age / 7). */
export function recencyWeight(ageDays: number): number {
  if (!Number.isFinite(ageDays) || ageDays < 0) throw new RangeError(`A citation's age must be >= 0 days (got ${ageDays})`);
  return 0.5 ** (ageDays / CONSENSUS_HALF_LIFE_DAYS);
}

/** What the consensus score needs of one cited domain over the range. */
export interface DomainCitations {
  domain: string;
  /** The age in days (at the end of the range) of each of its citations… */
  citationAgesDays?: readonly number[];
  /** …or their recency weights already summed (0.5^(age / CONSENSUS_HALF_LIFE_DAYS) each, e.g. by the database). */
  weightedCitations?: number;
  /** How many distinct providers cited it. */
  providersCiting: number;
}

export interface ConsensusScore {
  domain: string;
  /** Recency-weighted citations × provider coverage, before scaling. */
  raw: number;
  /** 0-100, the top domain (or the brand's top domain, when given) being 100. */
  score: number | null;
}

/**
 * Consensus score of each cited domain (DESIGN §14): recency-weighted citation count (each
 * citation weighted 0.5^(age / 7)) × provider coverage (providers citing it / providers asked),
 * scaled so the reference domain scores 100 — the brand's top domain when `scaleTo` is given
 * (others may then exceed 100), otherwise the top domain of the list. Scores are null when the
 * reference scores 0 or no provider was asked.
 */
export function consensusScores(domains: readonly DomainCitations[], providersAsked: number, scaleTo?: number): ConsensusScore[] {
  const raw = domains.map((d) => {
    const weighted = d.weightedCitations ?? (d.citationAgesDays ?? []).reduce((sum, age) => sum + recencyWeight(age), 0);
    return { domain: d.domain, raw: providersAsked > 0 ? weighted * (Math.min(d.providersCiting, providersAsked) / providersAsked) : 0 };
  });
  const reference = scaleTo ?? raw.reduce((max, d) => Math.max(max, d.raw), 0);
  return raw.map((d) => ({ ...d, score: reference > 0 && providersAsked > 0 ? (d.raw / reference) * 100 : null }));
}

/** What the absence score needs of a domain cited where competitors are mentioned and the brand is not. */
export interface DomainAbsence {
  domain: string;
  /** Its consensus raw score (consensusScores' `raw`). */
  consensus: number;
  /** Answers citing the domain that mention a competitor and not the brand. */
  competitorOnlyAnswers: number;
  /** Answers citing the domain. */
  answersCiting: number;
}

/**
 * Absence score (DESIGN §14): consensus × competitor density (competitor-only answers / answers
 * citing the domain), scaled 0-100 over the list; `minScore` drops lower ones. Domains with no
 * competitor-only answer are not absences and are left out.
 */
export function absenceScores(domains: readonly DomainAbsence[], minScore = 0): { domain: string; score: number; competitorDensity: number }[] {
  const raw = domains
    .filter((d) => d.competitorOnlyAnswers > 0 && d.answersCiting > 0)
    .map((d) => {
      const competitorDensity = d.competitorOnlyAnswers / d.answersCiting;
      return { domain: d.domain, competitorDensity, raw: d.consensus * competitorDensity };
    });
  const top = raw.reduce((max, d) => Math.max(max, d.raw), 0);
  if (top === 0) return [];
  return raw
    .map((d) => ({ domain: d.domain, competitorDensity: d.competitorDensity, score: (d.raw / top) * 100 }))
    .filter((d) => d.score >= minScore)
    .sort((a, b) => b.score - a.score || a.domain.localeCompare(b.domain));
}
