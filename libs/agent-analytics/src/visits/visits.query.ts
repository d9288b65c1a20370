import { Injectable } from '@nestjs/common';
import { type Principal } from '@libs/auth';
import { ApiError, page } from '@libs/http';
import { parseUrlPattern } from '../domain/url-pattern';
import { AgentReads, AGENT_SQL } from '../read-model/agent-reads';
import { botVisitOf } from '../read-model/visit-rows';
import { AgentScope } from '../shared/agent-scope';
import { canonicalBotName } from '../shared/bot-names';
import { VisitsQuery } from './visits.request.dto';
import { VisitPage } from './visits.response.dto';

/** The read behind `GET /api/v1/agent-analytics/visits`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class AgentVisits {
  constructor(
    private readonly scopes: AgentScope,
    private readonly reads: AgentReads,
  ) {}

  async read(p: Principal, q: VisitsQuery): Promise<VisitPage> {
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
