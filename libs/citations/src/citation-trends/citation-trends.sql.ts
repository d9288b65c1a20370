import { ANSWERS_WHERE, filterParams, type AnswerFilter, type Sql } from '../read-model/answer-filter';

export interface CitationRateRow {
  day: string;
  answers: number;
  with_citations: number;
  brand_cited: number;
}

export interface CitationOwnersRow {
  day: string;
  owner: string;
  citations: number;
}

/** Per day: analysed answers, those with a citation, those citing the brand. */
export function citationRateSql(f: AnswerFilter): Sql {
  return {
    text: `SELECT to_char(day, 'YYYY-MM-DD') AS day, count(*)::int AS answers, count(*) FILTER (WHERE citations > 0)::int AS with_citations, count(*) FILTER (WHERE brand_cited)::int AS brand_cited
             FROM prompt_answers WHERE ${ANSWERS_WHERE} GROUP BY day`,
    params: filterParams(f),
  };
}

/** Per day and owner: citations. */
export function citationOwnersSql(f: AnswerFilter): Sql {
  return { text: `SELECT to_char(day, 'YYYY-MM-DD') AS day, owner, count(*)::int AS citations FROM citation_records WHERE ${ANSWERS_WHERE} GROUP BY day, owner`, params: filterParams(f) };
}

/** A day: the rate's counts and the citations by owner (`citationDailySql`'s rows, or `citationDays` of the statements over the answers). */
export interface CitationDayRow extends CitationRateRow {
  brand: number;
  competitor: number;
  other: number;
}

/**
 * Per day, from `citation_daily_rollups` (per brand, day, provider and market; no market is ''):
 * what `citationRateSql` and `citationOwnersSql` give over the answers, for a filter that names no
 * prompt (the rollup has none). Days without answers are left out, as those statements leave them.
 */
export function citationDailySql(f: AnswerFilter): Sql {
  return {
    text: `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(answers)::int AS answers, sum(with_citations)::int AS with_citations, sum(brand_cited)::int AS brand_cited,
                  sum(brand_citations)::int AS brand, sum(competitor_citations)::int AS competitor, sum(other_citations)::int AS other
             FROM citation_daily_rollups
            WHERE organization_id = $1 AND brand_id = $2 AND day BETWEEN $3::date AND $4::date
              AND ($5::text IS NULL OR provider = $5) AND ($6::text IS NULL OR country = $6) AND ($7::text IS NULL OR language = $7)
            GROUP BY day HAVING sum(answers) > 0`,
    params: [f.organizationId, f.brandId, f.start, f.end, f.provider ?? null, f.country ?? null, f.language ?? null],
  };
}

/** Whether `citationDailySql` answers for this filter: it names no prompt (no promptId, no topic). */
export const dailyRollupAnswers = (f: AnswerFilter): boolean => f.promptIds === undefined;
