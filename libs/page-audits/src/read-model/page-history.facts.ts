/**
 * The reads other concerns make of page audits' results (issue 30: the SQL stays with the tables'
 * owner; a consumer runs the statement on its own connection and maps the rows to its types).
 */

/** A statement and its parameters. */
export interface PageFactsStatement {
  text: string;
  params: unknown[];
}

/** A row of the page-history facts: one scored result of a page, with when it was fetched. */
export interface PageResultFactRow {
  id: string;
  audit_id: string;
  url: string;
  score: number;
  components: unknown[] | null;
  kinds: string[] | null;
  audited_at: Date;
}

/** A brand's scored page results (a 304 is scored again from the signals kept), with when each was fetched. */
const SCORED = `SELECT r.id, r.audit_id, r.url, r.score, r.components, r.kinds, coalesce(r.fetched_at, a.completed_at, a.created_at) AS audited_at
  FROM page_audit_results r JOIN page_audits a ON a.id = r.audit_id
 WHERE r.organization_id = $1 AND r.brand_id = $2 AND r.status IN ('scored', 'not_modified') AND r.score IS NOT NULL`;

/** Each page scored in one of `auditIds`, with its last `perPage` scored results (any age), by url then oldest first. */
export function pageHistoryFacts(organizationId: number, brandId: number, auditIds: readonly number[], perPage: number): PageFactsStatement {
  return {
    text: `SELECT * FROM (
         SELECT s.*, row_number() OVER (PARTITION BY s.url ORDER BY s.id DESC) AS rn FROM (${SCORED}
            AND r.url IN (SELECT url FROM page_audit_results WHERE audit_id = ANY($3::bigint[]) AND organization_id = $1 AND brand_id = $2 AND status IN ('scored', 'not_modified'))) s
       ) x WHERE rn <= $4 ORDER BY url, id`,
    params: [organizationId, brandId, [...auditIds], perPage],
  };
}

/** A page's scored results fetched after `after`, oldest first. */
export function pageResultsAfterFacts(organizationId: number, brandId: number, url: string, after: Date): PageFactsStatement {
  return { text: `${SCORED} AND r.url = $3 AND coalesce(r.fetched_at, a.completed_at, a.created_at) > $4 ORDER BY r.id`, params: [organizationId, brandId, url, after.toISOString()] };
}
