import type { Thresholds } from './thresholds';

/** The opportunity types the answer detectors open (members of the opportunity queue's types). */
export const DETECTOR_TYPES = ['sov_drop', 'dropped_from_top3', 'competitor_gap', 'missing_citation', 'sentiment_drop', 'stability_alert', 'misinformation', 'hallucination_cluster'] as const;
export type DetectorType = (typeof DETECTOR_TYPES)[number];
export type Severity = 'low' | 'medium' | 'high' | 'critical';

/** A claim of an answer that contradicts one of the brand's registered facts. */
export interface Contradiction {
  fact: string;
  claimed: string;
  expected: string;
  sentence: string;
}

/** What the detectors need of one analysed answer (read from the answers' read model). */
export interface AnswerFact {
  resultId: string;
  runId: number;
  promptId: number | null;
  query: string;
  provider: string;
  askedAt: string;
  brand: { mentioned: boolean; mentions: number; rank: number | null; sentiment: 'positive' | 'neutral' | 'negative' | null };
  /** Mentions of every tracked entity (brand and competitors) in the answer. */
  totalMentions: number;
  competitors: { entityId: string; name: string; mentioned: boolean }[];
  /** The answer cites one of the brand's domains; it cites anything at all. */
  cited: boolean;
  withCitations: boolean;
  /** Domains of competitors the answer cites. */
  competitorDomains: string[];
  contradictions: Contradiction[];
}

/** One prompt asked of one provider: its analysed answers, oldest first. */
export interface Series {
  /** `p<promptId>` for a tracked prompt, `q:<query>` for an audit request's query. */
  key: string;
  promptId: number | null;
  query: string;
  provider: string;
  answers: AnswerFact[];
}

/** What every detector is given. */
export interface DetectorInput {
  organizationId: number;
  brandId: number;
  brandName: string;
  series: readonly Series[];
  /**
   * The runs that just completed: only series with an answer in them are judged (a provider down
   * for a run has no answer there, so no drop is opened from its gap). Null judges every series.
   */
  runIds: ReadonlySet<number> | null;
  /** Fingerprints of the brand's open opportunities: a problem already open is not reported again. */
  openFingerprints: ReadonlySet<string>;
  thresholds: Thresholds;
}

/** What a detector reports: the detect command's input. */
export interface Detection {
  type: DetectorType;
  fingerprint: string;
  severity: Severity;
  title: string;
  description: string;
  evidence: Record<string, unknown>;
}

export const seriesKey = (promptId: number | null, query: string) => (promptId !== null ? `p${promptId}` : `q:${query}`);

/** The stable fingerprint of a problem: type, brand, prompt (or domain, or claim), provider. */
export const fingerprintOf = (type: DetectorType, brandId: number, subject: string, provider: string) => `${type}:${brandId}:${subject}:${provider}`;

/** Whether the series got an answer in the runs being judged. */
export function judged(series: Series, runIds: ReadonlySet<number> | null): boolean {
  return runIds === null || series.answers.some((a) => runIds.has(a.runId));
}

/** The recent window (the last `recentAnswers`) and the baseline before it (up to `baselineAnswers`). */
export function windows<T>(answers: readonly T[], t: Pick<Thresholds, 'recentAnswers' | 'baselineAnswers'>): { baseline: T[]; recent: T[] } {
  const cut = Math.max(0, answers.length - t.recentAnswers);
  return { baseline: answers.slice(Math.max(0, cut - t.baselineAnswers), cut), recent: answers.slice(cut) };
}

/** A series to judge: answered in the runs judged, its problem not open yet; its fingerprint and windows. */
export interface Candidate {
  series: Series;
  fingerprint: string;
  baseline: AnswerFact[];
  recent: AnswerFact[];
}

/** The series a per-series detector of `type` judges (see `judged`, the open fingerprints and `windows`). */
export function candidates(input: DetectorInput, type: DetectorType): Candidate[] {
  const out: Candidate[] = [];
  for (const series of input.series) {
    if (!judged(series, input.runIds)) continue;
    const fingerprint = fingerprintOf(type, input.brandId, series.key, series.provider);
    if (input.openFingerprints.has(fingerprint)) continue;
    out.push({ series, fingerprint, ...windows(series.answers, input.thresholds) });
  }
  return out;
}

/** Up to three example answers with links to their results (the latest first). */
export function examples(answers: readonly AnswerFact[], keep: (a: AnswerFact) => boolean = () => true): Record<string, unknown>[] {
  return answers
    .filter(keep)
    .slice(-3)
    .reverse()
    .map((a) => ({ resultId: a.resultId, runId: a.runId, provider: a.provider, query: a.query, askedAt: a.askedAt, link: `/api/v1/analysis-runs/${a.runId}/results#${a.resultId}` }));
}

/** The span of a window: its answers and their first and last times. */
export function span(answers: readonly AnswerFact[]): { answers: number; from: string | null; to: string | null } {
  return { answers: answers.length, from: answers[0]?.askedAt ?? null, to: answers[answers.length - 1]?.askedAt ?? null };
}

export const scopeOf = (brandId: number, s: Pick<Series, 'promptId' | 'query' | 'provider'> | null, provider?: string) =>
  s ? { brandId, promptId: s.promptId, query: s.query, provider: s.provider } : { brandId, promptId: null, query: null, provider: provider ?? null };

export const short = (text: string, max = 80) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
