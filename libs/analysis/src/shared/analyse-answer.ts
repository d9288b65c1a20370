import { ANSWER_ANALYSIS_VERSION, checkFacts, createAnalyzer, type AnswerAnalyzer, type BrandFacts, type TrackedEntity } from '@libs/answer-analysis';
import type { AnalysedCitation, AnalysedEntity, AnswerAnalysed } from '../domain';

/** A brand and its competitors as the analysis tracks them: names, aliases, domains. */
export interface TrackedBrand {
  readonly brand: { readonly id: number; readonly name: string; readonly domain: string; readonly aliases: readonly string[]; readonly extraDomains?: readonly string[] };
  readonly competitors: readonly { readonly id: number; readonly name: string; readonly domain: string; readonly aliases: readonly string[]; readonly extraDomains?: readonly string[] }[];
  /** The brand's registered facts (answers are checked against them). */
  readonly facts?: BrandFacts;
}

/** Claims kept per answer (an answer repeating a price twenty times is not twenty claims). */
const MAX_CLAIMS = 20;

/** The entity id of a brand or competitor in analyses: stable across runs and re-analyses. */
export const brandEntityId = (brandId: number) => `brand-${brandId}`;
export const competitorEntityId = (competitorId: number) => `competitor-${competitorId}`;

export function trackedEntities(t: TrackedBrand): TrackedEntity[] {
  const domains = (e: { domain: string; extraDomains?: readonly string[] }) => [...new Set([e.domain, ...(e.extraDomains ?? [])])];
  return [
    { id: brandEntityId(t.brand.id), kind: 'brand', name: t.brand.name, aliases: t.brand.aliases, domains: domains(t.brand) },
    ...t.competitors.map((c) => ({ id: competitorEntityId(c.id), kind: 'competitor' as const, name: c.name, aliases: c.aliases, domains: domains(c) })),
  ];
}

/** Analyzers by tracked-entity set (a brand's analyzer is compiled once, then reused for its answers). */
const analyzers = new Map<string, AnswerAnalyzer>();

function analyzerFor(entities: readonly TrackedEntity[]): AnswerAnalyzer {
  const key = JSON.stringify(entities);
  let analyzer = analyzers.get(key);
  if (!analyzer) {
    if (analyzers.size >= 1000) analyzers.clear();
    analyzer = createAnalyzer(entities);
    analyzers.set(key, analyzer);
  }
  return analyzer;
}

/**
 * Analyses one recorded answer with libs/answer-analysis against the brand and its competitors:
 * each entity's mentions, rank, sentiment and visibility share, and each cited source with its
 * owner, in the answer's order.
 */
export function analyseAnswer(
  text: string,
  providerCitations: readonly { url: string; title: string | null }[],
  tracked: TrackedBrand,
): Pick<AnswerAnalysed['data'], 'engineVersion' | 'entities' | 'citations' | 'claims'> {
  const entities = trackedEntities(tracked);
  const analysis = analyzerFor(entities).analyze({ answer: text, providerCitations: providerCitations.map((c) => (c.title === null ? { url: c.url } : { url: c.url, title: c.title })) });
  const titles = new Map(providerCitations.map((c) => [c.url, c.title]));
  const analysedEntities: AnalysedEntity[] = analysis.entities.map((e) => ({
    entityId: e.entityId,
    kind: e.kind,
    name: e.name,
    mentioned: e.mentionCount > 0,
    mentions: e.mentionCount,
    rank: e.rank,
    sentiment: e.sentiment?.label ?? null,
    sentimentScore: e.sentiment?.score ?? null,
    visibilityShare: Math.round(e.visibility * 1e6) / 1e6,
  }));
  const citations: AnalysedCitation[] = analysis.citations.map((c) => ({
    url: c.url,
    domain: c.domain,
    title: titles.get(c.originalUrl) ?? null,
    position: c.order,
    owner: c.owner.kind,
    entityId: c.owner.kind === 'other' ? null : c.owner.entityId,
  }));
  const brandAnalysis = analysis.entities.find((e) => e.kind === 'brand');
  const claims =
    tracked.facts && brandAnalysis && brandAnalysis.mentionCount > 0
      ? checkFacts(
          brandAnalysis.sentences,
          [tracked.brand.name, ...tracked.brand.aliases],
          tracked.competitors.flatMap((c) => [c.name, ...c.aliases]),
          tracked.facts,
        )
          .slice(0, MAX_CLAIMS)
          .map((c) => ({ fact: c.fact, claimed: c.claimed, expected: c.expected, agrees: c.agrees, sentence: c.sentence.slice(0, 500) }))
      : [];
  return { engineVersion: ANSWER_ANALYSIS_VERSION, entities: analysedEntities, citations, claims };
}
