import type { RecordedEvent } from '@libs/event-store';
import { tableShape, type ProjectionContext, type Projector } from '@libs/projection-engine';
import { ANSWER_ROW_COLUMNS, replaceAnswerRows, type AnswerRowBase } from './latest-analyses';

interface CitationRow extends AnswerRowBase {
  position: number;
  url: string;
  domain: string;
  title: string | null;
  owner: string;
  entity_id: string | null;
}

const citations = tableShape<CitationRow>({
  table: 'answer_citations',
  columns: { ...ANSWER_ROW_COLUMNS, position: 'integer', url: 'text', domain: 'text', title: 'text', owner: 'text', entity_id: 'text' },
  key: ['result_id', 'position'],
});

/** `answer_citations`: one row per cited URL of an analysed answer, with its owner (brand, competitor, other); the latest analysis replaces an answer's rows. */
export const answerCitationsProjector: Projector = {
  name: 'answer_citations',
  handles: ['answer.analysed'],
  tables: ['answer_citations'],
  apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void> {
    return replaceAnswerRows(events, context, citations, (d, base) =>
      d.citations.map((c) => ({ ...base, position: c.position, url: c.url, domain: c.domain, title: c.title, owner: c.owner, entity_id: c.entityId })),
    );
  },
};
