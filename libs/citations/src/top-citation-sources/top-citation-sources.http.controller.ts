import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { RangeQuery } from '../shared/range.query';
import { TOP_CITATION_SOURCES_EXAMPLE } from './top-citation-sources.example';
import { TopCitationSourcesResponse } from './top-citation-sources.response.dto';
import { TopCitationSources } from './top-citation-sources.query';

@ApiTags('Citation sources')
@Controller('api/v1/citation-sources')
export class TopCitationSourcesController {
  constructor(private readonly topCitationSources: TopCitationSources) {}

  @Get('top')
  @RequireScope('read:citation-sources')
  @ApiOperation({
    operationId: 'citation_sources_top',
    summary: 'The domains the engines cite in answers about the brand, ranked by consensus score (citation count × provider coverage × recency, DESIGN §14)',
  })
  @ApiOkResponse({ type: TopCitationSourcesResponse, example: TOP_CITATION_SOURCES_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  top(@CurrentPrincipal() p: Principal, @Query() q: RangeQuery): Promise<TopCitationSourcesResponse> {
    return this.topCitationSources.read(p, q);
  }
}
