import { ANSWERS_WHERE, filterParams, type AnswerFilter, type Sql } from './answer-filter';

export interface SourceRow {
  id: string;
  url: string;
  domain: string;
  title: string | null;
  owner: string;
  entity_id: string | null;
  citations: number;
  answers: number;
  first_seen: Date;
  last_seen: Date;
  total?: number;
}

/** Citations of each of the given URLs of a brand, by provider (all time when `f` has no days). */
export function urlProvidersSql(organizationId: number, brandId: number, urls: readonly string[], f?: AnswerFilter): Sql {
  if (f !== undefined) {
    return {
      text: `SELECT url, provider, count(*)::int AS citations FROM citation_records WHERE ${ANSWERS_WHERE} AND url = ANY($9::text[])
              GROUP BY url, provider ORDER BY url, citations DESC, provider`,
      params: [...filterParams(f), [...urls]],
    };
  }
  return {
    text: `SELECT url, provider, count(*)::int AS citations FROM citation_records WHERE organization_id = $1 AND brand_id = $2 AND url = ANY($3::text[])
            GROUP BY url, provider ORDER BY url, citations DESC, provider`,
    params: [organizationId, brandId, [...urls]],
  };
}

/** A page of a brand's cited URLs in the period, with their ids (citation_sources), counts and total. */
export function sourcePageSql(f: AnswerFilter, q: { domain?: string; owner?: string; column: string; order: 'asc' | 'desc'; limit: number; offset: number }): Sql {
  const dir = q.order === 'asc' ? 'ASC' : 'DESC';
  return {
    text: `SELECT s.id, s.url, s.domain, s.title, x.owner, x.entity_id, x.citations, x.answers, x.first_seen, x.last_seen, count(*) OVER ()::int AS total
             FROM (SELECT url, min(owner) AS owner, min(entity_id) AS entity_id, count(*)::int AS citations, count(DISTINCT result_id)::int AS answers,
                          min(asked_at) AS first_seen, max(asked_at) AS last_seen
                     FROM citation_records WHERE ${ANSWERS_WHERE} AND ($9::text IS NULL OR domain = $9) AND ($10::text IS NULL OR owner = $10)
                    GROUP BY url) x
             JOIN citation_sources s ON s.brand_id = $2 AND s.url = x.url
            ORDER BY ${q.column === 'url' || q.column === 'domain' ? `s.${q.column}` : `x.${q.column}`} ${dir}, s.id ${dir}
            LIMIT $11 OFFSET $12`,
    params: [...filterParams(f), q.domain ?? null, q.owner ?? null, q.limit, q.offset],
  };
}
