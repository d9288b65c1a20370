import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { page, PageOf, sortColumn } from '@libs/http';
import { Reads } from '../read-model/reads';
import { CitationSourceRecordDto } from '../read-model/source-record.dto';
import { sourcePageSql, urlProvidersSql, type SourceRow } from '../read-model/source-reads';
import { CitationsScope } from '../shared/citations-scope';
import { groupBy, ownerOf } from '../shared/owners';
import { LIST_CITATION_SOURCES_EXAMPLE } from './list-citation-sources.example';
import { ListCitationSourcesQuery, SOURCE_SORTS } from './list-citation-sources.request.dto';

export class CitationSourcePage extends PageOf(CitationSourceRecordDto) {}

@ApiTags('Citations')
@Controller('api/v1/citations')
export class ListCitationSourcesController {
  constructor(
    private readonly scopes: CitationsScope,
    private readonly reads: Reads,
  ) {}

  @Get('sources')
  @RequireScope('read:citations')
  @ApiOperation({ operationId: 'citations_sources', summary: "The URLs cited in the brand's answers over the period (default the last 30 days), with how often and by which providers; filters provider, domain, owner, prompt, topic" })
  @ApiOkResponse({ type: CitationSourcePage, example: LIST_CITATION_SOURCES_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  async list(@CurrentPrincipal() p: Principal, @Query() q: ListCitationSourcesQuery): Promise<CitationSourcePage> {
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
