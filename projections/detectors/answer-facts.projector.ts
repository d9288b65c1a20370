import type { RecordedEvent } from '@libs/event-store';
import { ANSWER_FACTS, brandEntityId, type AnswerFactRow } from '@libs/detectors';
import type { ProjectionContext, Projector } from '@libs/projection-engine';
import { replaceAnswerRows } from '../analysis/latest-analyses';

/**
 * `answer_facts`: one row per analysed answer and tracked entity (the latest analysis of an answer
 * replaces its rows), so a brand's detector pass reads a few narrow rows instead of the answers'
 * JSON. An analysis that did not list the brand (none does today) still gets the brand's row, as
 * "not mentioned", so the answer counts in its series as the JSON read counted it.
 */
export const answerFactsProjector: Projector = {
  name: 'answer_facts',
  handles: ['answer.analysed'],
  tables: [ANSWER_FACTS.table],
  apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void> {
    return replaceAnswerRows(events, context, ANSWER_FACTS, (d, base) => {
      const brandId = brandEntityId(d.brandId);
      const common = { ...base, prompt_id: d.promptId ?? null, query: d.query };
      // The competitors' rows in the analysis's order (what the brand's row carries as arrays).
      const competitors = d.entities.filter((e) => e.kind === 'competitor');
      const answerWide = {
        total_mentions: d.entities.reduce((n, e) => n + e.mentions, 0),
        with_citations: d.citations.length > 0,
        competitor_domains: [...new Set(d.citations.filter((c) => c.owner === 'competitor').map((c) => c.domain))],
        contradictions: (d.claims ?? []).filter((c) => c.agrees === false).map((c) => ({ fact: c.fact, claimed: c.claimed, expected: c.expected, sentence: c.sentence })),
        competitor_ids: competitors.map((e) => e.entityId),
        competitor_names: competitors.map((e) => e.name),
        competitor_mentioned: competitors.map((e) => e.mentioned),
      };
      const none = { total_mentions: null, with_citations: null, competitor_domains: null, contradictions: null, competitor_ids: null, competitor_names: null, competitor_mentioned: null };
      const rows: AnswerFactRow[] = d.entities.map((e, position) => ({
        ...common,
        entity_id: e.entityId,
        position,
        kind: e.kind,
        name: e.name,
        mentioned: e.mentioned,
        mentions: e.mentions,
        rank: e.rank,
        sentiment: e.sentiment,
        cited: e.entityId === brandId ? d.citations.some((c) => c.owner === 'brand') : d.citations.some((c) => c.entityId === e.entityId),
        ...(e.entityId === brandId ? answerWide : none),
      }));
      if (!rows.some((r) => r.entity_id === brandId)) {
        rows.push({ ...common, entity_id: brandId, position: rows.length, kind: 'brand', name: '', mentioned: false, mentions: 0, rank: null, sentiment: null, cited: d.citations.some((c) => c.owner === 'brand'), ...answerWide });
      }
      return rows;
    });
  },
};
