/**
 * The reads other concerns make of analysis's answer read models (`answer_citations`,
 * `analysis_results`, `answer_entities`; issue 30: the SQL stays with the tables' owner, a consumer
 * runs the statement on its own connection and maps the rows to its types).
 */

/** A statement and its parameters. */
export interface AnswerFactsStatement {
  text: string;
  params: unknown[];
}

/** The brand's answers since `since` with at least one citation: one row, `n`. */
export function answersWithCitationsFacts(organizationId: number, brandId: number, since: Date): AnswerFactsStatement {
  return { text: `SELECT count(DISTINCT result_id)::int AS n FROM answer_citations WHERE organization_id = $1 AND brand_id = $2 AND asked_at >= $3`, params: [organizationId, brandId, since] };
}

/** A row of `citationGapFacts`: a prompt whose answers cite a competitor's page and none of the brand's. */
export interface CitationGapFactRow {
  query: string;
  answers: number;
  providers: string[];
  pages: { url: string; domain: string; entityId: string | null; citations: number }[] | null;
}

/**
 * Per prompt since `since` (at most `limit`, most answers first): the answers citing a
 * competitor's page and none of the brand's, their providers, and the competitors' cited pages.
 */
export function citationGapFacts(organizationId: number, brandId: number, since: Date, limit: number): AnswerFactsStatement {
  return {
    text: `WITH answers AS (
         SELECT c.result_id, bool_or(c.owner = 'brand') AS brand_cited, bool_or(c.owner = 'competitor') AS competitor_cited
         FROM answer_citations c WHERE c.organization_id = $1 AND c.brand_id = $2 AND c.asked_at >= $3 GROUP BY c.result_id
       ), gaps AS (
         SELECT a.result_id, r.query, r.provider FROM answers a JOIN analysis_results r ON r.id = a.result_id
         WHERE a.competitor_cited AND NOT a.brand_cited
       ), per_query AS (
         SELECT query, count(*)::int AS answers, array_agg(DISTINCT provider ORDER BY provider) AS providers FROM gaps GROUP BY query
       ), pages AS (
         SELECT g.query, c.url, c.domain, c.entity_id, count(*)::int AS citations
         FROM gaps g JOIN answer_citations c ON c.result_id = g.result_id AND c.owner = 'competitor'
         GROUP BY g.query, c.url, c.domain, c.entity_id
       )
       SELECT q.query, q.answers, q.providers,
         (SELECT json_agg(json_build_object('url', p.url, 'domain', p.domain, 'entityId', p.entity_id, 'citations', p.citations) ORDER BY p.citations DESC, p.url)
          FROM pages p WHERE p.query = q.query) AS pages
       FROM per_query q ORDER BY q.answers DESC, q.query LIMIT $4`,
    params: [organizationId, brandId, since, limit],
  };
}

/** The competitors named in the brand's answers since `since`: rows of `entity_id`, `name`. */
export function competitorNameFacts(organizationId: number, brandId: number, since: Date): AnswerFactsStatement {
  return { text: `SELECT DISTINCT entity_id, name FROM answer_entities WHERE organization_id = $1 AND brand_id = $2 AND kind = 'competitor' AND asked_at >= $3`, params: [organizationId, brandId, since] };
}
