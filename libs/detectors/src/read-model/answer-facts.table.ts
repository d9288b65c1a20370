import { ANSWER_ROW_COLUMNS, type AnswerRowBase } from '@libs/analysis';
import { tableShape } from '@libs/projection-engine';
import type { Contradiction } from '../domain';

/**
 * A row of `answer_facts` (issue 34, part 4): one analysed answer and one tracked entity (brand or
 * competitor), narrow, what the detectors read instead of the answers' JSON. The brand's row also
 * carries what belongs to the answer as a whole (every entity's mentions, whether it cites
 * anything, the competitors' cited domains, the claims contradicting the brand's facts, and the
 * answer's competitors as arrays in the analysis's order, so the read needs no other row); the
 * other rows leave those null.
 */
export interface AnswerFactRow extends AnswerRowBase {
  prompt_id: number | null;
  query: string;
  entity_id: string;
  /** The entity's place in the analysis's list (the order the answer's competitors are read in). */
  position: number;
  kind: string;
  name: string;
  mentioned: boolean;
  mentions: number;
  rank: number | null;
  sentiment: string | null;
  /** The answer cites one of the entity's domains (the brand: a citation owned by the brand). */
  cited: boolean;
  total_mentions: number | null;
  with_citations: boolean | null;
  competitor_domains: string[] | null;
  contradictions: Contradiction[] | null;
  /** The answer's competitors (rows of kind `competitor`) in the analysis's order: entity ids, names, mentioned. */
  competitor_ids: string[] | null;
  competitor_names: string[] | null;
  competitor_mentioned: boolean[] | null;
}

export const ANSWER_FACTS = tableShape<AnswerFactRow>({
  table: 'answer_facts',
  columns: {
    ...ANSWER_ROW_COLUMNS,
    prompt_id: 'bigint',
    query: 'text',
    entity_id: 'text',
    position: 'integer',
    kind: 'text',
    name: 'text',
    mentioned: 'boolean',
    mentions: 'integer',
    rank: 'integer',
    sentiment: 'text',
    cited: 'boolean',
    total_mentions: 'integer',
    with_citations: 'boolean',
    competitor_domains: 'text[]',
    contradictions: 'jsonb',
    competitor_ids: 'text[]',
    competitor_names: 'text[]',
    competitor_mentioned: 'boolean[]',
  },
  key: ['result_id', 'entity_id'],
});

/** The entity id of a brand's own row. */
export const brandEntityId = (brandId: number) => `brand-${brandId}`;
