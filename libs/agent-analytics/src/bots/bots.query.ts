import { Injectable } from '@nestjs/common';
import { type Principal } from '@libs/auth';
import { rate } from '@libs/metrics';
import { AgentDaysQuery } from '../agent-queries';
import { AgentReads, AGENT_SQL } from '../read-model/agent-reads';
import { crawlBlock, operatorOf } from '../read-model/visit-rows';
import { AgentScope } from '../shared/agent-scope';
import { BotsResponse } from './bots.response.dto';

/** The read behind `GET /api/v1/agent-analytics/bots`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class AgentBots {
  constructor(
    private readonly scopes: AgentScope,
    private readonly reads: AgentReads,
  ) {}

  async read(p: Principal, q: AgentDaysQuery): Promise<BotsResponse> {
    const f = await this.scopes.resolve(p, q, q.days);
    const rows = await this.reads.run(AGENT_SQL.bots(f));
    return {
      data: rows.map((r) => {
        const visits = Number(r.visits);
        const counts = { verified: Number(r.verified), spoofed: Number(r.spoofed), unverifiable: Number(r.unverifiable) };
        const verification = (Object.entries(counts) as [string, number][]).sort((a, b) => b[1] - a[1])[0][0];
        return {
          botName: r.bot_name as string,
          operator: operatorOf(r.bot_name as string),
          category: r.category as string,
          visits,
          verifiedVisits: counts.verified,
          spoofedVisits: counts.spoofed,
          unverifiableVisits: counts.unverifiable,
          verifiedShare: rate(counts.verified, visits),
          verification,
          lastSeen: (r.last_seen as Date).toISOString(),
          crawlBlock: crawlBlock(visits, Number(r.errors), Number(r.disallowed)),
        };
      }),
    };
  }
}
