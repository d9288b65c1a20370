import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { page, PageOf } from '@libs/http';
import { BOT_VISIT_EXAMPLE, BotVisitDto } from '../agent-analytics.dto';
import { AgentReads, AGENT_SQL } from '../read-model/agent-reads';
import { botVisitOf } from '../read-model/visit-rows';
import { AgentScope } from '../shared/agent-scope';
import { canonicalBotName } from '../shared/bot-names';
import { BotVisitsQuery } from './bot-visits.request.dto';

export class BotVisitPage extends PageOf(BotVisitDto) {}

@ApiTags('Agent analytics')
@Controller('api/v1/agent-analytics')
export class BotVisitsController {
  constructor(
    private readonly scopes: AgentScope,
    private readonly reads: AgentReads,
  ) {}

  @Get('bot-visits')
  @RequireScope('read:agent-analytics')
  @ApiOperation({ operationId: 'agent_analytics_bot_visits', summary: 'Requests of AI agents to your sites over the last sinceDays days, newest first' })
  @ApiOkResponse({ type: BotVisitPage, example: { data: [BOT_VISIT_EXAMPLE], meta: { total: 1, limit: 100, offset: 0, hasMore: false } } })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this brandId' })
  async list(@CurrentPrincipal() p: Principal, @Query() q: BotVisitsQuery): Promise<BotVisitPage> {
    const f = await this.scopes.resolve(p, q, q.sinceDays);
    const s = AGENT_SQL.visits(f, { botName: canonicalBotName(q.botName), path: null, hostPattern: null, limit: q.limit, offset: q.offset });
    const [rows, [total]] = await Promise.all([this.reads.run(s.rows), this.reads.run(s.total)]);
    return page(rows.map(botVisitOf), Number(total.total), q);
  }
}
