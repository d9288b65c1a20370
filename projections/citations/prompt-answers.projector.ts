import type { RecordedEvent } from '@libs/event-store';
import { CounterDeltas, tableShape, type ProjectionContext, type Projector } from '@libs/projection-engine';
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
  brand_citations: number;
  competitor_citations: number;
  other_citations: number;
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
    brand_citations: 'integer',
    competitor_citations: 'integer',
    other_citations: 'integer',
  },
  key: ['result_id'],
});

interface CitationDailyRollupRow {
  organization_id: number;
  brand_id: number;
  day: string;
  provider: string;
  country: string;
  language: string;
  answers: number;
  with_citations: number;
  brand_cited: number;
  brand_citations: number;
  competitor_citations: number;
  other_citations: number;
}

/**
 * `citation_daily_rollups`: `prompt_answers` summed per brand, UTC day, provider and market (no
 * market: '' for country and language): answers, those with a citation, those citing the brand,
 * citations by owner. Always the GROUP BY of `prompt_answers` that its migration's backfill spells
 * out (citations/trends reads it when no prompt is named; test/citations/citation-trends-rollup).
 */
export const CITATION_DAILY_ROLLUPS = tableShape<CitationDailyRollupRow>({
  table: 'citation_daily_rollups',
  columns: {
    organization_id: 'bigint',
    brand_id: 'bigint',
    day: 'date',
    provider: 'text',
    country: 'text',
    language: 'text',
    answers: 'integer',
    with_citations: 'integer',
    brand_cited: 'integer',
    brand_citations: 'integer',
    competitor_citations: 'integer',
    other_citations: 'integer',
  },
  key: ['brand_id', 'day', 'provider', 'country', 'language'],
});

const ROLLUP_COUNTERS = ['answers', 'with_citations', 'brand_cited', 'brand_citations', 'competitor_citations', 'other_citations'] as const;

/** What one `prompt_answers` row (as written, or as deleted) adds to its rollup cell. */
type RollupPart = Pick<PromptAnswerRow, 'organization_id' | 'brand_id' | 'day' | 'provider' | 'country' | 'language' | 'citations' | 'brand_cited' | 'brand_citations' | 'competitor_citations' | 'other_citations'>;

/** The columns of a deleted row that make its part (RETURNING; the day as its key). */
const ROLLUP_PART_RETURNING = `t.organization_id, t.brand_id, to_char(t.day, 'YYYY-MM-DD') AS day, t.provider, t.country, t.language, t.citations, t.brand_cited, t.brand_citations, t.competitor_citations, t.other_citations`;

function addPart(deltas: CounterDeltas<CitationDailyRollupRow, (typeof ROLLUP_COUNTERS)[number]>, r: RollupPart, sign: 1 | -1): void {
  deltas.add(
    { organization_id: Number(r.organization_id), brand_id: Number(r.brand_id), day: r.day, provider: r.provider, country: r.country ?? '', language: r.language ?? '' },
    {
      answers: sign,
      with_citations: r.citations > 0 ? sign : 0,
      brand_cited: r.brand_cited ? sign : 0,
      brand_citations: sign * r.brand_citations,
      competitor_citations: sign * r.competitor_citations,
      other_citations: sign * r.other_citations,
    },
  );
}

/**
 * `prompt_answers`: one row per analysed answer as its brand sees it: mentioned or not, rank,
 * sentiment, the competitors mentioned, the domains cited and whether one of them is the brand's,
 * its citations by owner (prompt insights, gaps and trends, citation rates, the providers asked).
 * The latest analysis wins. `citation_daily_rollups` is kept beside it in the same transaction: a
 * re-analysed answer's deleted row is subtracted from its cell, every written row added.
 */
export const promptAnswersProjector: Projector = {
  name: 'prompt_answers',
  handles: ['answer.analysed'],
  tables: [PROMPT_ANSWERS.table, CITATION_DAILY_ROLLUPS.table],
  async apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void> {
    const deltas = new CounterDeltas(CITATION_DAILY_ROLLUPS, ROLLUP_COUNTERS);
    const replaced = {
      returning: ROLLUP_PART_RETURNING,
      replaced: (deleted: readonly Record<string, unknown>[], written: readonly PromptAnswerRow[]) => {
        for (const r of deleted) addPart(deltas, r as unknown as RollupPart, -1);
        for (const r of written) addPart(deltas, r, 1);
      },
    };
    await replaceAnswerRows(events, context, PROMPT_ANSWERS, (d, base) => {
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
          brand_citations: d.citations.filter((c) => c.owner === 'brand').length,
          competitor_citations: d.citations.filter((c) => c.owner === 'competitor').length,
          other_citations: d.citations.filter((c) => c.owner === 'other').length,
        },
      ];
    }, replaced);
    await deltas.flush(context);
  },
};
