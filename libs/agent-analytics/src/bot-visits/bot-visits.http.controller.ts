import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BOT_VISIT_EXAMPLE } from '../agent-analytics.dto';
import { BotVisitsQuery } from './bot-visits.request.dto';
import { BotVisitPage } from './bot-visits.response.dto';
import { BotVisits } from './bot-visits.query';

@ApiTags('Agent analytics')
@Controller('api/v1/agent-analytics')
export class BotVisitsController {
  constructor(private readonly botVisits: BotVisits) {}

  @Get('bot-visits')
  @RequireScope('read:agent-analytics')
  @ApiOperation({ operationId: 'agent_analytics_bot_visits', summary: 'Requests of AI agents to your sites over the last sinceDays days, newest first' })
  @ApiOkResponse({ type: BotVisitPage, example: { data: [BOT_VISIT_EXAMPLE], meta: { total: 1, limit: 100, offset: 0, hasMore: false } } })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this brandId' })
  list(@CurrentPrincipal() p: Principal, @Query() q: BotVisitsQuery): Promise<BotVisitPage> {
    return this.botVisits.read(p, q);
  }
}
