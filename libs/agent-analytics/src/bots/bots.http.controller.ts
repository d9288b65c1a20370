import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { AgentDaysQuery } from '../agent-queries';
import { BotsResponse } from './bots.response.dto';
import { AgentBots } from './bots.query';

@ApiTags('Agent analytics')
@Controller('api/v1/agent-analytics')
export class BotsController {
  constructor(private readonly query: AgentBots) {}

  @Get('bots')
  @RequireScope('read:agent-analytics')
  @ApiOperation({ operationId: 'agent_analytics_bots', summary: 'Per AI agent over the last days: visits, verification, last seen and the crawl_block signal, most visits first' })
  @ApiOkResponse({
    type: BotsResponse,
    example: {
      data: [
        { botName: 'GPTBot', operator: 'OpenAI', category: 'training', visits: 420, verifiedVisits: 400, spoofedVisits: 20, unverifiableVisits: 0, verifiedShare: { value: 0.9524, n: 420, low: 0.9278, high: 0.9689 }, verification: 'verified', lastSeen: '2026-11-24T08:15:02.114Z', crawlBlock: { errorShare: { value: 0.05, n: 420, low: 0.0335, high: 0.0754 }, disallowedShare: { value: 0, n: 420, low: 0, high: 0.0091 }, errorVisits: 21, disallowedVisits: 0 } },
      ],
    },
  })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this brandId' })
  bots(@CurrentPrincipal() p: Principal, @Query() q: AgentDaysQuery): Promise<BotsResponse> {
    return this.query.read(p, q);
  }
}
