import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CostReads } from '@libs/analysis';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { UsageQuery } from '../usage-window.query';
import { UsageRepository, usageWindow } from '../usage.repository';
import { UsageStatisticsResponse } from './usage-statistics.response.dto';

@ApiTags('Usage and key validation')
@Controller('api/v1/usage')
export class UsageStatisticsController {
  constructor(
    private readonly usage: UsageRepository,
    private readonly costs: CostReads,
  ) {}

  @Get()
  @RequireScope('read:usage')
  @ApiOperation({
    operationId: 'usage_statistics',
    summary: "The organisation's API usage",
    description:
      "Totals, a per-day series and a per-endpoint breakdown with error counts and latency percentiles, over the last `days` UTC days; `cost`: what the AI providers' answers of the organisation's runs cost (tokens and USD) in total and per day, computed when read from the price table in force on each day (a client-bound credential sees its own brands' runs). Counters are written in batches, so the last second or so may not show yet. A credential bound to a client sees its own usage only.",
  })
  @ApiOkResponse({ type: UsageStatisticsResponse })
  @ApiBadRequestResponse({ description: 'days is not an integer from 1 to 365' })
  async statistics(@CurrentPrincipal() p: Principal, @Query() q: UsageQuery): Promise<UsageStatisticsResponse> {
    // A client-bound credential must not learn what the organisation's other clients do.
    const own = p.clientId === null ? undefined : p.subject;
    const window = usageWindow(q.days);
    const [usage, cost] = await Promise.all([this.usage.organizationUsage(p.organizationId, window, own), this.costs.daily(p, window.from, window.to)]);
    return { data: { ...usage, cost } };
  }
}
