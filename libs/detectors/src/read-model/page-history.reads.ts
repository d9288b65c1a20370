import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { PageComponent, PageHistory, PageResult } from '../domain';

interface Row {
  id: string;
  audit_id: string;
  url: string;
  score: number;
  components: PageComponent[];
  kinds: string[] | null;
  audited_at: Date;
}

const toResult = (r: Row): PageResult => ({
  resultId: Number(r.id),
  auditId: Number(r.audit_id),
  url: r.url,
  score: r.score,
  components: r.components ?? [],
  kinds: r.kinds ?? [],
  auditedAt: new Date(r.audited_at).toISOString(),
});

/** A brand's scored page results (a 304 is scored again from the signals kept), with when each was fetched. */
const SCORED = `SELECT r.id, r.audit_id, r.url, r.score, r.components, r.kinds, coalesce(r.fetched_at, a.completed_at, a.created_at) AS audited_at
  FROM page_audit_results r JOIN page_audits a ON a.id = r.audit_id
 WHERE r.organization_id = $1 AND r.brand_id = $2 AND r.status IN ('scored', 'not_modified') AND r.score IS NOT NULL`;

/**
 * A brand's page history from page audits' results (`page_audit_results`, libs/page-audits, read
 * by SQL: the detectors do not import that library).
 */
@Injectable()
export class PageHistoryReads {
  constructor(private readonly dataSource: DataSource) {}

  /** Each page scored in one of `auditIds`, with its last `perPage` scored audits (any age), oldest first. */
  async pagesOf(organizationId: number, brandId: number, auditIds: readonly number[], perPage = 5): Promise<PageHistory[]> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT * FROM (
         SELECT s.*, row_number() OVER (PARTITION BY s.url ORDER BY s.id DESC) AS rn FROM (${SCORED}
            AND r.url IN (SELECT url FROM page_audit_results WHERE audit_id = ANY($3::bigint[]) AND organization_id = $1 AND brand_id = $2 AND status IN ('scored', 'not_modified'))) s
       ) x WHERE rn <= $4 ORDER BY url, id`,
      [organizationId, brandId, [...auditIds], perPage],
    );
    const pages = new Map<string, PageHistory>();
    for (const r of rows) {
      const page = pages.get(r.url) ?? pages.set(r.url, { url: r.url, results: [] }).get(r.url)!;
      page.results.push(toResult(r));
    }
    return [...pages.values()];
  }

  /** The page's scored audits fetched after `after`, oldest first. */
  async page(organizationId: number, brandId: number, url: string, after: Date): Promise<PageResult[]> {
    const rows: Row[] = await this.dataSource.query(`${SCORED} AND r.url = $3 AND coalesce(r.fetched_at, a.completed_at, a.created_at) > $4 ORDER BY r.id`, [
      organizationId,
      brandId,
      url,
      after.toISOString(),
    ]);
    return rows.map(toResult);
  }
}
