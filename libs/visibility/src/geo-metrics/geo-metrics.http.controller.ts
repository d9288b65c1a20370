import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandPeriodQuery } from '@libs/http';
import { GEO_METRICS_EXAMPLE } from './geo-metrics.example';
import { GeoMetrics } from './geo-metrics.query';
import { GeoMetricsResponse } from './geo-metrics.response.dto';

@ApiTags('GEO')
@Controller('api/v1/geo')
export class GeoMetricsController {
  constructor(private readonly geo: GeoMetrics) {}

  @Get('metrics')
  @RequireScope('read:visibility')
  @ApiOperation({ operationId: 'geo_metrics', summary: 'Generative-engine figures of the brand over the period: visibility share, citation rate, citation share; overall and per provider' })
  @ApiOkResponse({ type: GeoMetricsResponse, example: GEO_METRICS_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  metrics(@CurrentPrincipal() p: Principal, @Query() q: BrandPeriodQuery): Promise<GeoMetricsResponse> {
    return this.geo.read(p, q);
  }
}
