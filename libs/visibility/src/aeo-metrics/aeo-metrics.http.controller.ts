import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandPeriodQuery } from '@libs/http';
import { AEO_METRICS_EXAMPLE } from './aeo-metrics.example';
import { AeoMetrics } from './aeo-metrics.query';
import { AeoMetricsResponse } from './aeo-metrics.response.dto';

@ApiTags('AEO')
@Controller('api/v1/aeo')
export class AeoMetricsController {
  constructor(private readonly aeo: AeoMetrics) {}

  @Get('metrics')
  @RequireScope('read:visibility')
  @ApiOperation({ operationId: 'aeo_metrics', summary: 'Answer-engine figures of the brand over the period: mention rate, average position, top-3 rate, accuracy; overall and per provider' })
  @ApiOkResponse({ type: AeoMetricsResponse, example: AEO_METRICS_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  metrics(@CurrentPrincipal() p: Principal, @Query() q: BrandPeriodQuery): Promise<AeoMetricsResponse> {
    return this.aeo.read(p, q);
  }
}
