import type { RecordedEvent } from '@libs/event-store';
import { tableShape, type ProjectionContext, type Projector } from '@libs/projection-engine';
import { ANSWER_ROW_COLUMNS, replaceAnswerRows, type AnswerRowBase } from './latest-analyses';

interface EntityRow extends AnswerRowBase {
  entity_id: string;
  kind: string;
  name: string;
  mentioned: boolean;
  mentions: number;
  rank: number | null;
  sentiment: string | null;
  sentiment_score: number | null;
  visibility_share: number;
}

const entities = tableShape<EntityRow>({
  table: 'answer_entities',
  columns: { ...ANSWER_ROW_COLUMNS, entity_id: 'text', kind: 'text', name: 'text', mentioned: 'boolean', mentions: 'integer', rank: 'integer', sentiment: 'text', sentiment_score: 'float8', visibility_share: 'float8' },
  key: ['result_id', 'entity_id'],
});

/**
 * `answer_entities`: one row per analysed answer and tracked entity (mentioned or not: a rate's
 * denominator counts the answers that did not name the brand). The latest analysis of an answer
 * replaces its rows.
 */
export const answerEntitiesProjector: Projector = {
  name: 'answer_entities',
  handles: ['answer.analysed'],
  tables: ['answer_entities'],
  apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void> {
    return replaceAnswerRows(events, context, entities, (d, base) =>
      d.entities.map((e) => ({
        ...base,
        entity_id: e.entityId,
        kind: e.kind,
        name: e.name,
        mentioned: e.mentioned,
        mentions: e.mentions,
        rank: e.rank,
        sentiment: e.sentiment,
        sentiment_score: e.sentimentScore,
        visibility_share: e.visibilityShare,
      })),
    );
  },
};
