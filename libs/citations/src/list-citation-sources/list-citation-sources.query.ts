import { Injectable } from '@nestjs/common';
import { AnswerScope } from '@libs/analysis';
import { type Principal } from '@libs/auth';
import { page, sortColumn } from '@libs/http';
import type { CitationSourcePage } from './list-citation-sources.response.dto';
import { Reads } from '../read-model/reads';
import { sourcePageSql, urlProvidersSql, type SourceRow } from '../read-model/source-reads';
import { groupBy, ownerOf } from '../shared/owners';
import { ListCitationSourcesQuery, SOURCE_SORTS } from './list-citation-sources.request.dto';

/** The read behind `GET /api/v1/citations/sources`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class ListCitationSources {
  constructor(
    private readonly scopes: AnswerScope,
    private readonly reads: Reads,
  ) {}

  async read(p: Principal, q: ListCitationSourcesQuery): Promise<CitationSourcePage> {
    const scope = await this.scopes.period(p, q);
    const column = sortColumn(q.sort, SOURCE_SORTS, 'citations');
    const [rows] = await Promise.all([
      this.reads.rows<SourceRow>(sourcePageSql(scope.filter, { domain: q.domain, owner: q.owner, column, order: q.order, limit: q.limit, offset: q.offset })),
      this.scopes.named(scope, p),
    ]);
    const total = rows[0]?.total ?? (q.offset > 0 ? await this.countOf(q, scope.filter) : 0);
    const providers = rows.length
      ? groupBy(await this.reads.rows<{ url: string; provider: string; citations: number }>(urlProvidersSql(scope.brand.organizationId, scope.brand.id, rows.map((r) => r.url), scope.filter)), (r) => r.url)
      : new Map<string, { provider: string; citations: number }[]>();
    return page(
      rows.map((r) => ({
        id: Number(r.id),
        url: r.url,
        domain: r.domain,
        title: r.title,
        owner: ownerOf(scope, r.owner, r.entity_id),
        citations: r.citations,
        answers: r.answers,
        providers: (providers.get(r.url) ?? []).map(({ provider, citations }) => ({ provider, citations })),
        firstSeen: r.first_seen.toISOString(),
        lastSeen: r.last_seen.toISOString(),
      })),
      total,
      q,
    );
  }

  /** The total when the page is past the end (the window count comes with rows only). */
  private async countOf(q: ListCitationSourcesQuery, f: Parameters<typeof sourcePageSql>[0]): Promise<number> {
    const [first] = await this.reads.rows<SourceRow>(sourcePageSql(f, { domain: q.domain, owner: q.owner, column: 'citations', order: 'desc', limit: 1, offset: 0 }));
    return first?.total ?? 0;
  }
}
