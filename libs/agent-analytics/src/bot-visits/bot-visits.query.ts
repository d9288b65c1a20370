import { Injectable } from '@nestjs/common';
import { type Principal } from '@libs/auth';
import { page } from '@libs/http';
import { AgentReads, AGENT_SQL } from '../read-model/agent-reads';
import { botVisitOf } from '../read-model/visit-rows';
import { AgentScope } from '../shared/agent-scope';
import { canonicalBotName } from '../shared/bot-names';
import { BotVisitsQuery } from './bot-visits.request.dto';
import { BotVisitPage } from './bot-visits.response.dto';

/** The read behind `GET /api/v1/agent-analytics/bot-visits`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class BotVisits {
  constructor(
    private readonly scopes: AgentScope,
    private readonly reads: AgentReads,
  ) {}

  async read(p: Principal, q: BotVisitsQuery): Promise<BotVisitPage> {
    const f = await this.scopes.resolve(p, q, q.sinceDays);
    const s = AGENT_SQL.visits(f, { botName: canonicalBotName(q.botName), path: null, hostPattern: null, limit: q.limit, offset: q.offset });
    const [rows, [total]] = await Promise.all([this.reads.run(s.rows), this.reads.run(s.total)]);
    return page(rows.map(botVisitOf), Number(total.total), q);
  }
}
