import type { AnswerFact, DetectorInput, Series } from '../domain/answer-facts';
import { DEFAULT_THRESHOLDS, type Thresholds } from '../domain/thresholds';

/** Test fixtures: answers, series and detector inputs built from a few fields. */
let clock = Date.parse('2026-01-01T00:00:00Z');

export function answer(p: Partial<Omit<AnswerFact, 'brand'>> & { brand?: Partial<AnswerFact['brand']> } = {}): AnswerFact {
  clock += 3_600_000;
  const runId = p.runId ?? 1;
  const brand = { mentioned: true, mentions: 1, rank: 1, sentiment: 'positive' as const, ...p.brand };
  return {
    resultId: `${runId}-${clock % 1000}`,
    runId,
    promptId: 1,
    query: 'best crm',
    provider: 'chatgpt',
    askedAt: new Date(clock).toISOString(),
    totalMentions: brand.mentions + 2,
    competitors: [{ entityId: 'competitor-1', name: 'Globex', mentioned: true }],
    cited: true,
    withCitations: true,
    competitorDomains: ['globex.com'],
    contradictions: [],
    ...p,
    brand,
  };
}

/** `count` answers alike (each gets its own time). */
export const many = (count: number, p: Parameters<typeof answer>[0] = {}) => Array.from({ length: count }, () => answer(p));

export function series(answers: AnswerFact[], p: Partial<Omit<Series, 'answers'>> = {}): Series {
  const first = answers[0];
  return { key: p.promptId === undefined ? `p${first?.promptId ?? 1}` : `p${p.promptId}`, promptId: first?.promptId ?? 1, query: first?.query ?? 'best crm', provider: first?.provider ?? 'chatgpt', ...p, answers };
}

export function input(s: Series[], p: Partial<Omit<DetectorInput, 'thresholds'>> & { thresholds?: Partial<Thresholds> } = {}): DetectorInput {
  return { organizationId: 1, brandId: 7, brandName: 'Acme', series: s, runIds: null, openFingerprints: new Set(), ...p, thresholds: { ...DEFAULT_THRESHOLDS, ...p.thresholds } };
}
