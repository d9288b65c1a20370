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

/**
 * A brand's page history from page audits' results (`page_audit_results`, libs/page-audits, read
 * by SQL: the detectors do not import that library): every scored audit of a page (a 304 is scored
 * again from the signals kept), when it was fetched.
 */
@Injectable()
export class PageHistoryReads {
  constructor(private readonly dataSource: DataSource) {}

  /** Each page of the brand audited since `since`, with its last `perPage` scored audits, oldest first. */
  async brand(organizationId: number, brandId: number, since: Date, perPage = 5): Promise<PageHistory[]> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT id, audit_id, url, score, components, kinds, audited_at FROM (
         SELECT r.id, r.audit_id, r.url, r.score, r.components, r.kinds, coalesce(r.fetched_at, a.completed_at, a.created_at) AS audited_at,
                row_number() OVER (PARTITION BY r.url ORDER BY r.id DESC) AS rn
           FROM page_audit_results r JOIN page_audits a ON a.id = r.audit_id
          WHERE r.organization_id = $1 AND r.brand_id = $2 AND r.status IN ('scored', 'not_modified') AND r.score IS NOT NULL
            AND coalesce(r.fetched_at, a.completed_at, a.created_at) >= $3
       ) x WHERE rn <= $4 ORDER BY url, id`,
      [organizationId, brandId, since.toISOString(), perPage],
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
    const rows: Row[] = await this.dataSource.query(
      `SELECT r.id, r.audit_id, r.url, r.score, r.components, r.kinds, coalesce(r.fetched_at, a.completed_at, a.created_at) AS audited_at
         FROM page_audit_results r JOIN page_audits a ON a.id = r.audit_id
        WHERE r.organization_id = $1 AND r.brand_id = $2 AND r.url = $3 AND r.status IN ('scored', 'not_modified') AND r.score IS NOT NULL
          AND coalesce(r.fetched_at, a.completed_at, a.created_at) > $4
        ORDER BY r.id`,
      [organizationId, brandId, url, after.toISOString()],
    );
    return rows.map(toResult);
  }
}
