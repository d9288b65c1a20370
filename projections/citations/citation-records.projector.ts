import type { RecordedEvent } from '@libs/event-store';
import { tableShape, type ProjectionContext, type Projector } from '@libs/projection-engine';
import { ANSWER_ROW_COLUMNS, type AnswerRowBase } from '@libs/analysis';
import { replaceAnswerRows } from '../analysis/latest-analyses';

interface CitationRecordRow extends AnswerRowBase {
  position: number;
  day: string;
  prompt_id: number | null;
  query: string;
  url: string;
  domain: string;
  title: string | null;
  owner: string;
  entity_id: string | null;
  brand_mentioned: boolean;
  competitors_mentioned: string[];
}

export const CITATION_RECORDS = tableShape<CitationRecordRow>({
  table: 'citation_records',
  columns: {
    ...ANSWER_ROW_COLUMNS,
    position: 'integer',
    day: 'date',
    prompt_id: 'bigint',
    query: 'text',
    url: 'text',
    domain: 'text',
    title: 'text',
    owner: 'text',
    entity_id: 'text',
    brand_mentioned: 'boolean',
    competitors_mentioned: 'text[]',
  },
  key: ['result_id', 'position'],
});

/**
 * `citation_records`: one row per cited URL of an analysed answer, with the prompt and whether the
 * answer mentions the brand and which competitors (citation sources, absences, source records and
 * citation trends read it). The latest analysis of an answer replaces its rows.
 */
export const citationRecordsProjector: Projector = {
  name: 'citation_records',
  handles: ['answer.analysed'],
  tables: [CITATION_RECORDS.table],
  apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void> {
    return replaceAnswerRows(events, context, CITATION_RECORDS, (d, base) => {
      const brandMentioned = d.entities.some((e) => e.kind === 'brand' && e.mentioned);
      const competitors = d.entities.filter((e) => e.kind === 'competitor' && e.mentioned).map((e) => e.entityId);
      return d.citations.map((c) => ({
        ...base,
        position: c.position,
        day: d.askedAt.slice(0, 10),
        prompt_id: d.promptId,
        query: d.query,
        url: c.url,
        domain: c.domain,
        title: c.title,
        owner: c.owner,
        entity_id: c.entityId,
        brand_mentioned: brandMentioned,
        competitors_mentioned: competitors,
      }));
    });
  },
};
