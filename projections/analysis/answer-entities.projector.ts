import type { RecordedEvent } from '@libs/event-store';
import { ANSWER_ENTITIES } from '@libs/analysis';
import type { ProjectionContext, Projector } from '@libs/projection-engine';
import { replaceAnswerRows } from './latest-analyses';

/**
 * `answer_entities`: one row per analysed answer and tracked entity (mentioned or not: a rate's
 * denominator counts the answers that did not name the brand). The latest analysis of an answer
 * replaces its rows.
 */
export const answerEntitiesProjector: Projector = {
  name: 'answer_entities',
  handles: ['answer.analysed'],
  tables: [ANSWER_ENTITIES.table],
  apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void> {
    return replaceAnswerRows(events, context, ANSWER_ENTITIES, (d, base) =>
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
