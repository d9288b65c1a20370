import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ApiError, page, PageOf } from '@libs/http';
import { BOT_VISIT_EXAMPLE, BotVisitDto } from '../agent-analytics.dto';
import { parseUrlPattern } from '../domain/url-pattern';
import { AgentReads, AGENT_SQL } from '../read-model/agent-reads';
import { botVisitOf } from '../read-model/visit-rows';
import { AgentScope } from '../shared/agent-scope';
import { canonicalBotName } from '../shared/bot-names';
import { VisitsQuery } from './visits.request.dto';

export class VisitPage extends PageOf(BotVisitDto) {}

@ApiTags('Agent analytics')
@Controller('api/v1/agent-analytics')
export class VisitsController {
  constructor(
    private readonly scopes: AgentScope,
    private readonly reads: AgentReads,
  ) {}

  @Get('visits')
  @RequireScope('read:agent-analytics')
  @ApiOperation({ operationId: 'agent_analytics_visits', summary: 'Visits of AI agents over the last days, by agent and URL pattern, newest first' })
  @ApiOkResponse({ type: VisitPage, example: { data: [BOT_VISIT_EXAMPLE], meta: { total: 1, limit: 50, offset: 0, hasMore: false } } })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this brandId' })
  async list(@CurrentPrincipal() p: Principal, @Query() q: VisitsQuery): Promise<VisitPage> {
    let pattern: { host: string | null; path: string } | null = null;
    if (q.url !== undefined) {
      const parsed = parseUrlPattern(q.url);
      if ('problem' in parsed) throw ApiError.validation([{ field: 'url', message: parsed.problem }]);
      pattern = parsed;
    }
    const f = await this.scopes.resolve(p, q, q.days);
    const s = AGENT_SQL.visits(f, { botName: canonicalBotName(q.botName), path: pattern?.path ?? null, hostPattern: pattern?.host ?? null, limit: q.limit, offset: q.offset });
    const [rows, [total]] = await Promise.all([this.reads.run(s.rows), this.reads.run(s.total)]);
    return page(rows.map(botVisitOf), Number(total.total), q);
  }
}
