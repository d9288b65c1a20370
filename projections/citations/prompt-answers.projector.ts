import type { RecordedEvent } from '@libs/event-store';
import { tableShape, type ProjectionContext, type Projector } from '@libs/projection-engine';
import { ANSWER_ROW_COLUMNS, type AnswerRowBase } from '@libs/analysis';
import { replaceAnswerRows } from '../analysis/latest-analyses';

interface PromptAnswerRow extends AnswerRowBase {
  day: string;
  prompt_id: number | null;
  query: string;
  brand_mentioned: boolean;
  brand_rank: number | null;
  brand_sentiment: string | null;
  brand_sentiment_score: number | null;
  competitors_mentioned: string[];
  cited_domains: string[];
  brand_cited: boolean;
  citations: number;
  brand_labeller: string | null;
  judge_outcome: string | null;
}

export const PROMPT_ANSWERS = tableShape<PromptAnswerRow>({
  table: 'prompt_answers',
  columns: {
    ...ANSWER_ROW_COLUMNS,
    day: 'date',
    prompt_id: 'bigint',
    query: 'text',
    brand_mentioned: 'boolean',
    brand_rank: 'integer',
    brand_sentiment: 'text',
    brand_sentiment_score: 'float8',
    competitors_mentioned: 'text[]',
    cited_domains: 'text[]',
    brand_cited: 'boolean',
    citations: 'integer',
    brand_labeller: 'text',
    judge_outcome: 'text',
  },
  key: ['result_id'],
});

/**
 * `prompt_answers`: one row per analysed answer as its brand sees it: mentioned or not, rank,
 * sentiment, the competitors mentioned, the domains cited and whether one of them is the brand's
 * (prompt insights, gaps and trends, citation rates, the providers asked). The latest analysis wins.
 */
export const promptAnswersProjector: Projector = {
  name: 'prompt_answers',
  handles: ['answer.analysed'],
  tables: [PROMPT_ANSWERS.table],
  apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void> {
    return replaceAnswerRows(events, context, PROMPT_ANSWERS, (d, base) => {
      const brand = d.entities.find((e) => e.kind === 'brand');
      const mentioned = brand?.mentioned ?? false;
      return [
        {
          ...base,
          day: d.askedAt.slice(0, 10),
          prompt_id: d.promptId,
          query: d.query,
          brand_mentioned: mentioned,
          brand_rank: mentioned ? (brand?.rank ?? null) : null,
          brand_sentiment: mentioned ? (brand?.sentiment ?? null) : null,
          brand_sentiment_score: mentioned && brand?.sentiment ? (brand.sentimentScore ?? null) : null,
          competitors_mentioned: d.entities.filter((e) => e.kind === 'competitor' && e.mentioned).map((e) => e.entityId),
          cited_domains: [...new Set(d.citations.map((c) => c.domain))],
          brand_cited: d.citations.some((c) => c.owner === 'brand'),
          citations: d.citations.length,
          brand_labeller: mentioned && brand?.sentiment ? (brand.labeller ?? `model:${d.engineVersion}`) : null,
          judge_outcome: d.judge?.outcome ?? null,
        },
      ];
    });
  },
};
