import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { CrawlBlockDto } from '../agent-analytics.dto';
import { AgentDaysQuery, LimitQuery } from '../agent-queries';
import { AgentReads, AGENT_SQL } from '../read-model/agent-reads';
import { crawlBlock } from '../read-model/visit-rows';
import { AgentScope } from '../shared/agent-scope';

export class PagesQuery extends AgentDaysQuery {
  @LimitQuery(200, 50)
  limit: number = 50;
}

export class PageBotDto {
  @ApiProperty({ example: 'GPTBot' }) botName!: string;
  @ApiProperty({ type: 'integer', example: 12 }) visits!: number;
  @ApiProperty({ type: CrawlBlockDto, description: 'The crawl_block signal of this agent on this page' }) crawlBlock!: CrawlBlockDto;
}

export class CrawledPageDto {
  @ApiProperty({ example: 'www.acme.example' }) host!: string;
  @ApiProperty({ description: 'The path without its query', example: '/pricing' }) path!: string;
  @ApiProperty({ type: 'integer', example: 31 }) visits!: number;
  @ApiProperty({ type: CrawlBlockDto }) crawlBlock!: CrawlBlockDto;
  @ApiProperty({ type: [PageBotDto], description: 'Per agent, most visits first' }) bots!: PageBotDto[];
}

export class PagesResponse {
  @ApiProperty({ type: [CrawledPageDto] }) data!: CrawledPageDto[];
}

@ApiTags('Agent analytics')
@Controller('api/v1/agent-analytics')
export class PagesController {
  constructor(
    private readonly scopes: AgentScope,
    private readonly reads: AgentReads,
  ) {}

  @Get('pages')
  @RequireScope('read:agent-analytics')
  @ApiOperation({ operationId: 'agent_analytics_pages', summary: 'The pages AI agents fetched most over the last days, with per-agent counts and the crawl_block signal' })
  @ApiOkResponse({
    type: PagesResponse,
    example: { data: [{ host: 'www.acme.example', path: '/pricing', visits: 12, crawlBlock: { errorShare: { value: 0, n: 12, low: 0, high: 0.2425 }, disallowedShare: { value: 0, n: 12, low: 0, high: 0.2425 }, errorVisits: 0, disallowedVisits: 0 }, bots: [{ botName: 'GPTBot', visits: 12, crawlBlock: { errorShare: { value: 0, n: 12, low: 0, high: 0.2425 }, disallowedShare: { value: 0, n: 12, low: 0, high: 0.2425 }, errorVisits: 0, disallowedVisits: 0 } }] }] },
  })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this brandId' })
  async pages(@CurrentPrincipal() p: Principal, @Query() q: PagesQuery): Promise<PagesResponse> {
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
