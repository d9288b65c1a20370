import { ANSWERS_WHERE, filterParams, type AnswerFilter, type Sql } from '../read-model/answer-filter';

/** Answers that mention a competitor and not the brand. */
const COMPETITOR_ONLY = `NOT brand_mentioned AND cardinality(competitors_mentioned) > 0`;

/** Per domain not the brand's: answers citing it, and of those the ones mentioning a competitor and not the brand. */
export function absenceDensitySql(f: AnswerFilter): Sql {
  return {
    text: `SELECT domain, count(DISTINCT result_id)::int AS answers, count(DISTINCT result_id) FILTER (WHERE ${COMPETITOR_ONLY})::int AS competitor_only
             FROM citation_records WHERE ${ANSWERS_WHERE} AND owner <> 'brand'
            GROUP BY domain HAVING count(*) FILTER (WHERE ${COMPETITOR_ONLY}) > 0`,
    params: filterParams(f),
  };
}

/** The competitors mentioned in the competitor-only answers citing each of the given domains. */
export function absenceCompetitorsSql(f: AnswerFilter, domains: readonly string[]): Sql {
  return {
    text: `SELECT domain, c AS entity_id, count(DISTINCT result_id)::int AS answers
             FROM citation_records, unnest(competitors_mentioned) AS c
            WHERE ${ANSWERS_WHERE} AND domain = ANY($9::text[]) AND NOT brand_mentioned
            GROUP BY domain, c ORDER BY domain, answers DESC, c`,
    params: [...filterParams(f), [...domains]],
  };
}

/** The prompts of the competitor-only answers citing each of the given domains. */
export function absencePromptsSql(f: AnswerFilter, domains: readonly string[]): Sql {
  return {
    text: `SELECT domain, query, max(prompt_id) AS prompt_id, count(DISTINCT result_id)::int AS answers
             FROM citation_records
            WHERE ${ANSWERS_WHERE} AND domain = ANY($9::text[]) AND ${COMPETITOR_ONLY}
            GROUP BY domain, query ORDER BY domain, answers DESC, query`,
    params: [...filterParams(f), [...domains]],
  };
}
