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

/** A day: the rate's counts and the citations by owner. */
export interface CitationDayRow extends CitationRateRow {
  brand: number;
  competitor: number;
  other: number;
}

