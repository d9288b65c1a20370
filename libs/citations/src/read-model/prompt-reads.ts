import { averagePosition, mean, mentionRate, netSentiment, type Mean, type Rate } from '@libs/metrics';
import { ANSWERS_WHERE, filterParams, type AnswerFilter, type Sql } from './answer-filter';

/** Answers that mention a competitor and not the brand (a prompt's gap). */
export const GAP_ANSWER = `NOT brand_mentioned AND cardinality(competitors_mentioned) > 0`;

export interface PromptSumsRow {
  day?: string;
  query: string;
  prompt_id: string | null;
  answers: number;
  mentioned: number;
  ranked: number;
  rank_sum: number;
  positive: number;
  neutral: number;
  negative: number;
  score_sum: number;
  gaps: number;
  judged: number;
  judge_fallbacks: number;
}

/** Per prompt (query), and per day when asked: the brand's counts over the analysed answers. */
export function promptSumsSql(f: AnswerFilter, byDay = false): Sql {
  const day = byDay ? `to_char(day, 'YYYY-MM-DD') AS day, ` : '';
  return {
    text: `SELECT ${day}query, max(prompt_id) AS prompt_id, count(*)::int AS answers, count(*) FILTER (WHERE brand_mentioned)::int AS mentioned,
                  count(brand_rank)::int AS ranked, coalesce(sum(brand_rank), 0)::int AS rank_sum,
                  count(*) FILTER (WHERE brand_sentiment = 'positive')::int AS positive, count(*) FILTER (WHERE brand_sentiment = 'neutral')::int AS neutral,
                  count(*) FILTER (WHERE brand_sentiment = 'negative')::int AS negative, coalesce(sum(brand_sentiment_score), 0)::float8 AS score_sum,
                  count(*) FILTER (WHERE ${GAP_ANSWER})::int AS gaps,
                  count(*) FILTER (WHERE brand_sentiment IS NOT NULL AND brand_labeller LIKE 'judge:%')::int AS judged,
                  count(*) FILTER (WHERE brand_sentiment IS NOT NULL AND judge_outcome = 'fallback')::int AS judge_fallbacks
             FROM prompt_answers WHERE ${ANSWERS_WHERE} GROUP BY ${byDay ? 'day, ' : ''}query`,
    params: filterParams(f),
  };
}

/** Per prompt of the list and competitor: answers mentioning it, and of those the ones not mentioning the brand. */
export function promptCompetitorsSql(f: AnswerFilter, queries: readonly string[]): Sql {
  return {
    text: `SELECT query, c AS entity_id, count(*)::int AS mentioned, count(*) FILTER (WHERE NOT brand_mentioned)::int AS gap_answers
             FROM prompt_answers, unnest(competitors_mentioned) AS c
            WHERE ${ANSWERS_WHERE} AND query = ANY($9::text[]) GROUP BY query, c`,
    params: [...filterParams(f), [...queries]],
  };
}

/** Per prompt of the list: its five most cited domains (in its gap answers only, when asked). */
export function promptSourcesSql(f: AnswerFilter, queries: readonly string[], gapsOnly = false): Sql {
  return {
    text: `SELECT query, domain, owner, entity_id, citations FROM (
             SELECT query, domain, min(owner) AS owner, min(entity_id) AS entity_id, count(*)::int AS citations,
                    row_number() OVER (PARTITION BY query ORDER BY count(*) DESC, domain) AS k
               FROM citation_records WHERE ${ANSWERS_WHERE} AND query = ANY($9::text[])${gapsOnly ? ` AND ${GAP_ANSWER}` : ''}
              GROUP BY query, domain) x
            WHERE k <= 5 ORDER BY query, k`,
    params: [...filterParams(f), [...queries]],
  };
}

/** The brand's figures of one prompt's answers (DESIGN §14). */
export interface PromptFigures {
  mentionRate: Rate;
  averagePosition: Mean;
  sentiment: { positive: number; neutral: number; negative: number; netSentiment: Mean; meanScore: Mean; labelledBy: { judge: number; model: number; judgeFallbacks: number } };
}

export function promptFigures(r: PromptSumsRow): PromptFigures {
  const labelled = r.positive + r.neutral + r.negative;
  return {
    mentionRate: mentionRate(r.mentioned, r.answers),
    averagePosition: averagePosition(r.rank_sum, r.ranked),
    sentiment: { positive: r.positive, neutral: r.neutral, negative: r.negative, netSentiment: netSentiment(r), meanScore: mean(r.score_sum, labelled), labelledBy: { judge: r.judged, model: labelled - r.judged, judgeFallbacks: r.judge_fallbacks } },
  };
}

export const promptRef = (r: { query: string; prompt_id: string | null }) => ({ id: r.prompt_id === null ? null : Number(r.prompt_id), query: r.query });
