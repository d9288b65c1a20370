import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { AgentDaysQuery } from '../agent-queries';
import { AgentOverviewResponse } from './overview.response.dto';
import { AgentOverview } from './overview.query';

@ApiTags('Agent analytics')
@Controller('api/v1/agent-analytics')
export class OverviewController {
  constructor(private readonly query: AgentOverview) {}

  @Get('overview')
  @RequireScope('read:agent-analytics')
  @ApiOperation({ operationId: 'agent_analytics_overview', summary: 'Totals of the last days: AI-agent visits (verified, spoofed, unverifiable), distinct agents and pages, AI referral visits' })
  @ApiOkResponse({
    type: AgentOverviewResponse,
    example: { data: { startDate: '2026-10-26', endDate: '2026-11-24', visits: 1250, verifiedVisits: 980, spoofedVisits: 40, unverifiableVisits: 230, verifiedShare: { value: 0.784, n: 1250, low: 0.7605, high: 0.8058 }, uniqueBots: 9, pagesCrawled: 312, aiReferralVisits: 57 } },
  })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this brandId' })
  overview(@CurrentPrincipal() p: Principal, @Query() q: AgentDaysQuery): Promise<AgentOverviewResponse> {
    return this.query.read(p, q);
  }
}
