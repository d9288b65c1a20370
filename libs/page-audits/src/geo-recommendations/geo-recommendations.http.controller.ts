import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { EXAMPLE } from './geo-recommendations.example';
import { GeoRecommendationsResponse } from './geo-recommendations.response.dto';
import { GeoRecommendationsQuery } from './geo-recommendations.request.dto';
import { GeoRecommendations } from './geo-recommendations.query';

@ApiTags('GEO')
@Controller('api/v1/geo')
export class GeoRecommendationsController {
  constructor(private readonly geoRecommendations: GeoRecommendations) {}

  @Get('recommendations')
  @RequireScope('read:visibility')
  @ApiOperation({
    operationId: 'geo_recommendations',
    summary: 'What to change first: page findings of the latest audits merged with answer findings (prompts where a competitor’s page is cited and the brand’s is not), ranked by expected effect for the effort',
  })
  @ApiOkResponse({ type: GeoRecommendationsResponse, example: EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  list(@CurrentPrincipal() p: Principal, @Query() q: GeoRecommendationsQuery): Promise<GeoRecommendationsResponse> {
    return this.geoRecommendations.read(p, q);
  }
}
