import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BOT_VISIT_EXAMPLE } from '../agent-analytics.dto';
import { VisitsQuery } from './visits.request.dto';
import { VisitPage } from './visits.response.dto';
import { AgentVisits } from './visits.query';

@ApiTags('Agent analytics')
@Controller('api/v1/agent-analytics')
export class VisitsController {
  constructor(private readonly visits: AgentVisits) {}

  @Get('visits')
  @RequireScope('read:agent-analytics')
  @ApiOperation({ operationId: 'agent_analytics_visits', summary: 'AgentVisits of AI agents over the last days, by agent and URL pattern, newest first' })
  @ApiOkResponse({ type: VisitPage, example: { data: [BOT_VISIT_EXAMPLE], meta: { total: 1, limit: 50, offset: 0, hasMore: false } } })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this brandId' })
  list(@CurrentPrincipal() p: Principal, @Query() q: VisitsQuery): Promise<VisitPage> {
    return this.visits.read(p, q);
  }
}
