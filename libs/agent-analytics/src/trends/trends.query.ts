import { Injectable } from '@nestjs/common';
import { type Principal } from '@libs/auth';
import { eachDay } from '@libs/metrics';
import { AgentDaysQuery } from '../agent-queries';
import { BOT_CATEGORIES } from '../domain/bot-catalogue';
import { AgentReads, AGENT_SQL } from '../read-model/agent-reads';
import { AgentScope } from '../shared/agent-scope';
import { CategoryCountsDto, AgentTrendsResponse } from './trends.response.dto';

/** The read behind `GET /api/v1/agent-analytics/trends`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class AgentTrends {
  constructor(
    private readonly scopes: AgentScope,
    private readonly reads: AgentReads,
  ) {}

  async read(p: Principal, q: AgentDaysQuery): Promise<AgentTrendsResponse> {
    const f = await this.scopes.resolve(p, q, q.days);
    const rows = await this.reads.run(AGENT_SQL.trends(f));
    const days = new Map(eachDay(f.start, f.end).map((date) => [date, { date, visits: 0, byCategory: Object.fromEntries(BOT_CATEGORIES.map((c) => [c, 0])) as unknown as CategoryCountsDto, verified: 0, unverified: 0, spoofed: 0 }]));
    for (const r of rows) {
      const d = days.get(r.day as string);
      if (!d) continue;
      const n = Number(r.visits);
      d.visits += n;
      const category = r.category as keyof CategoryCountsDto;
      if (category in d.byCategory) d.byCategory[category] += n;
      if (r.verification === 'verified') d.verified += n;
      else d.unverified += n;
      if (r.verification === 'spoofed') d.spoofed += n;
    }
    return { data: { startDate: f.start, endDate: f.end, days: [...days.values()] } };
  }
}
