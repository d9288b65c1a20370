import { Injectable } from '@nestjs/common';
import { type Principal } from '@libs/auth';
import { AgentReads, AGENT_SQL } from '../read-model/agent-reads';
import { crawlBlock } from '../read-model/visit-rows';
import { AgentScope } from '../shared/agent-scope';
import { CrawledPageDto, PagesResponse } from './pages.response.dto';
import { PagesQuery } from './pages.request.dto';

/** The read behind `GET /api/v1/agent-analytics/pages`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class AgentPages {
  constructor(
    private readonly scopes: AgentScope,
    private readonly reads: AgentReads,
  ) {}

  async read(p: Principal, q: PagesQuery): Promise<PagesResponse> {
    const f = await this.scopes.resolve(p, q, q.days);
    const rows = await this.reads.run(AGENT_SQL.pages(f, q.limit));
    const pages: CrawledPageDto[] = [];
    const totals: { visits: number; errors: number; disallowed: number }[] = [];
    for (const r of rows) {
      let last = pages[pages.length - 1];
      if (!last || last.host !== r.host || last.path !== r.path) {
        last = { host: r.host as string, path: r.path as string, visits: Number(r.total), crawlBlock: crawlBlock(0, 0, 0), bots: [] };
        pages.push(last);
        totals.push({ visits: 0, errors: 0, disallowed: 0 });
      }
      const t = totals[totals.length - 1];
      const [visits, errors, disallowed] = [Number(r.visits), Number(r.errors), Number(r.disallowed)];
      t.visits += visits;
      t.errors += errors;
      t.disallowed += disallowed;
      last.bots.push({ botName: r.bot_name as string, visits, crawlBlock: crawlBlock(visits, errors, disallowed) });
    }
    pages.forEach((page, i) => (page.crawlBlock = crawlBlock(totals[i].visits, totals[i].errors, totals[i].disallowed)));
    return { data: pages };
  }
}
