import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ListGeoPagesQuery } from './list-geo-pages.request.dto';
import { EXAMPLE } from './list-geo-pages.example';
import { GeoPageListResponse } from './list-geo-pages.response.dto';
import { ListGeoPages } from './list-geo-pages.query';

@ApiTags('GEO')
@Controller('api/v1/geo')
export class ListGeoPagesController {
  constructor(private readonly listGeoPages: ListGeoPages) {}

  @Get('pages')
  @RequireScope('read:visibility')
  @ApiOperation({
    operationId: 'geo_pages',
    summary: "The brand's audited pages with their latest GEO score (0-100), its components, recommendations and score history (paginated)",
    description: 'sort: score (default), url or auditedAt; order: desc (default) or asc. Pages appear once an audit has scored them (POST /api/v1/brands/{id}/page-audits).',
  })
  @ApiOkResponse({ type: GeoPageListResponse, example: EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  list(@CurrentPrincipal() p: Principal, @Query() q: ListGeoPagesQuery): Promise<GeoPageListResponse> {
    return this.listGeoPages.read(p, q);
  }
}
