import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { pageHistoryFacts, pageResultsAfterFacts, type PageResultFactRow } from '@libs/page-audits';
import type { PageComponent, PageHistory, PageResult } from '../domain';

const toResult = (r: PageResultFactRow): PageResult => ({
  resultId: Number(r.id),
  auditId: Number(r.audit_id),
  url: r.url,
  score: r.score,
  components: (r.components ?? []) as PageComponent[],
  kinds: r.kinds ?? [],
  auditedAt: new Date(r.audited_at).toISOString(),
});

/** A brand's page history from page audits' results (their `pageHistoryFacts`, `pageResultsAfterFacts`). */
@Injectable()
export class PageHistoryReads {
  constructor(private readonly dataSource: DataSource) {}

  /** Each page scored in one of `auditIds`, with its last `perPage` scored audits (any age), oldest first. */
  async pagesOf(organizationId: number, brandId: number, auditIds: readonly number[], perPage = 5): Promise<PageHistory[]> {
    const facts = pageHistoryFacts(organizationId, brandId, auditIds, perPage);
    const rows: PageResultFactRow[] = await this.dataSource.query(facts.text, facts.params);
    const pages = new Map<string, PageHistory>();
    for (const r of rows) {
      const page = pages.get(r.url) ?? pages.set(r.url, { url: r.url, results: [] }).get(r.url)!;
      page.results.push(toResult(r));
    }
    return [...pages.values()];
  }

  /** The page's scored audits fetched after `after`, oldest first. */
  async page(organizationId: number, brandId: number, url: string, after: Date): Promise<PageResult[]> {
    const facts = pageResultsAfterFacts(organizationId, brandId, url, after);
    const rows: PageResultFactRow[] = await this.dataSource.query(facts.text, facts.params);
    return rows.map(toResult);
  }
}
