import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { domainCitationsSql, domainConsensus, domainExamplesSql, providersAskedSql, type DomainCitationRow } from '../read-model/domain-consensus';
import { Reads } from '../read-model/reads';
import { CitationsScope } from '../shared/citations-scope';
import { groupBy, ownerOf } from '../shared/owners';
import { RangeQuery } from '../shared/range.query';
import { TOP_CITATION_SOURCES_EXAMPLE } from './top-citation-sources.example';
import { TopCitationSourcesResponse } from './top-citation-sources.response.dto';

@ApiTags('Citation sources')
@Controller('api/v1/citation-sources')
export class TopCitationSourcesController {
  constructor(
    private readonly scopes: CitationsScope,
    private readonly reads: Reads,
  ) {}

  @Get('top')
  @RequireScope('read:citation-sources')
  @ApiOperation({
    operationId: 'citation_sources_top',
    summary: 'The domains the engines cite in answers about the brand, ranked by consensus score (citation count × provider coverage × recency, DESIGN §14)',
  })
  @ApiOkResponse({ type: TopCitationSourcesResponse, example: TOP_CITATION_SOURCES_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  async top(@CurrentPrincipal() p: Principal, @Query() q: RangeQuery): Promise<TopCitationSourcesResponse> {
    const scope = await this.scopes.range(p, q, q.range);
    const [rows, [{ providers }]] = await Promise.all([
      this.reads.rows<DomainCitationRow>(domainCitationsSql(scope.filter)),
      this.reads.rows<{ providers: number }>(providersAskedSql(scope.filter)),
      this.scopes.named(scope, p),
    ]);
    const ranked = domainConsensus(rows, providers);
    const shown = ranked.slice(0, q.limit);
    const examples = shown.length ? groupBy(await this.reads.rows<{ domain: string; url: string }>(domainExamplesSql(scope.filter, shown.map((d) => d.domain))), (r) => r.domain) : new Map();
    return {
      data: {
        startDate: scope.filter.start,
        endDate: scope.filter.end,
        providersAsked: providers,
        totalDomains: ranked.length,
        domains: shown.map((d) => ({
          domain: d.domain,
          consensusScore: d.score,
          citations: d.citations,
          providerCoverage: providers ? Math.min(1, d.providers.length / providers) : 0,
          providers: d.providers,
          firstSeen: d.firstSeen,
          lastSeen: d.lastSeen,
          owner: ownerOf(scope, d.owner, d.entityId),
          exampleUrls: (examples.get(d.domain) ?? []).map((e: { url: string }) => e.url),
        })),
      },
    };
  }
}
