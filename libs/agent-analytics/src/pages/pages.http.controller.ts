import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { PagesResponse } from './pages.response.dto';
import { PagesQuery } from './pages.request.dto';
import { AgentPages } from './pages.query';

@ApiTags('Agent analytics')
@Controller('api/v1/agent-analytics')
export class PagesController {
  constructor(private readonly query: AgentPages) {}

  @Get('pages')
  @RequireScope('read:agent-analytics')
  @ApiOperation({ operationId: 'agent_analytics_pages', summary: 'The pages AI agents fetched most over the last days, with per-agent counts and the crawl_block signal' })
  @ApiOkResponse({
    type: PagesResponse,
    example: { data: [{ host: 'www.acme.example', path: '/pricing', visits: 12, crawlBlock: { errorShare: { value: 0, n: 12, low: 0, high: 0.2425 }, disallowedShare: { value: 0, n: 12, low: 0, high: 0.2425 }, errorVisits: 0, disallowedVisits: 0 }, bots: [{ botName: 'GPTBot', visits: 12, crawlBlock: { errorShare: { value: 0, n: 12, low: 0, high: 0.2425 }, disallowedShare: { value: 0, n: 12, low: 0, high: 0.2425 }, errorVisits: 0, disallowedVisits: 0 } }] }] },
  })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this brandId' })
  pages(@CurrentPrincipal() p: Principal, @Query() q: PagesQuery): Promise<PagesResponse> {
    return this.query.read(p, q);
  }
}
