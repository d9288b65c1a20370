import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { AgentDaysQuery } from '../agent-queries';
import { AgentTrendsResponse } from './trends.response.dto';
import { AgentTrends } from './trends.query';

@ApiTags('Agent analytics')
@Controller('api/v1/agent-analytics')
export class TrendsController {
  constructor(private readonly query: AgentTrends) {}

  @Get('trends')
  @RequireScope('read:agent-analytics')
  @ApiOperation({ operationId: 'agent_analytics_trends', summary: 'Daily visits of AI agents per category, verified and unverified' })
  @ApiOkResponse({
    type: AgentTrendsResponse,
    example: {
      data: {
        startDate: '2026-11-23',
        endDate: '2026-11-24',
        days: [
          { date: '2026-11-23', visits: 57, byCategory: { training: 30, search: 20, 'user-triggered': 7, agent: 0 }, verified: 50, unverified: 7, spoofed: 2 },
          { date: '2026-11-24', visits: 0, byCategory: { training: 0, search: 0, 'user-triggered': 0, agent: 0 }, verified: 0, unverified: 0, spoofed: 0 },
        ],
      },
    },
  })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this brandId' })
  trends(@CurrentPrincipal() p: Principal, @Query() q: AgentDaysQuery): Promise<AgentTrendsResponse> {
    return this.query.read(p, q);
  }
}
