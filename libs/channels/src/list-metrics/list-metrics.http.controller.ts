import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { METRIC_EXAMPLE, page as examplePage } from '../shared/examples';
import { MetricPage } from './list-metrics.response.dto';
import { ListMetricsQuery } from './list-metrics.request.dto';
import { ListMetrics } from './list-metrics.query';

@ApiTags('Channels')
@Controller('api/v1/metrics')
export class ListMetricsController {
  constructor(private readonly listMetrics: ListMetrics) {}

  @Get()
  @RequireScope('read:metrics')
  @ApiOperation({ operationId: 'metrics_list', summary: 'Daily metric rows of the connected channels: sessions, users, conversions, revenue, impressions, clicks, AI sessions; newest first by default' })
  @ApiOkResponse({ type: MetricPage, example: examplePage(METRIC_EXAMPLE) })
  @ApiNotFoundResponse({ description: 'No client or brand the caller may see has this id' })
  list(@CurrentPrincipal() p: Principal, @Query() q: ListMetricsQuery): Promise<MetricPage> {
    return this.listMetrics.read(p, q);
  }
}
