import { Injectable } from '@nestjs/common';
import { type Principal } from '@libs/auth';
import { rate } from '@libs/metrics';
import { AgentDaysQuery } from '../agent-queries';
import { AgentReads, AGENT_SQL } from '../read-model/agent-reads';
import { AgentScope } from '../shared/agent-scope';
import { AgentOverviewResponse } from './overview.response.dto';

/** The read behind `GET /api/v1/agent-analytics/overview`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class AgentOverview {
  constructor(
    private readonly scopes: AgentScope,
    private readonly reads: AgentReads,
  ) {}

  async read(p: Principal, q: AgentDaysQuery): Promise<AgentOverviewResponse> {
    const f = await this.scopes.resolve(p, q, q.days);
    const [r] = await this.reads.run(AGENT_SQL.overview(f));
    const b = r.bots as { visits: number; verified: number; spoofed: number; unverifiable: number; bots: number };
    return {
      data: {
        startDate: f.start,
        endDate: f.end,
        visits: Number(b.visits),
        verifiedVisits: Number(b.verified),
        spoofedVisits: Number(b.spoofed),
        unverifiableVisits: Number(b.unverifiable),
        verifiedShare: rate(Number(b.verified), Number(b.visits)),
        uniqueBots: Number(b.bots),
        pagesCrawled: Number(r.pages),
        aiReferralVisits: Number(r.referrals),
      },
    };
  }
}
