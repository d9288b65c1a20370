import type { RecordedEvent } from '@libs/event-store';
import { ANSWER_CITATIONS } from '@libs/analysis';
import type { ProjectionContext, Projector } from '@libs/projection-engine';
import { replaceAnswerRows } from './latest-analyses';

/** `answer_citations`: one row per cited URL of an analysed answer, with its owner (brand, competitor, other); the latest analysis replaces an answer's rows. */
export const answerCitationsProjector: Projector = {
  name: 'answer_citations',
  handles: ['answer.analysed'],
  tables: [ANSWER_CITATIONS.table],
  apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void> {
    return replaceAnswerRows(events, context, ANSWER_CITATIONS, (d, base) =>
      d.citations.map((c) => ({ ...base, position: c.position, url: c.url, domain: c.domain, title: c.title, owner: c.owner, entity_id: c.entityId })),
    );
  },
};
