import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { RateDto } from '@libs/http';
import { rate } from '@libs/metrics';
import { CrawlBlockDto } from '../agent-analytics.dto';
import { AgentDaysQuery } from '../agent-queries';
import { BOT_CATEGORIES } from '../domain/bot-catalogue';
import { AgentReads, AGENT_SQL } from '../read-model/agent-reads';
import { crawlBlock, operatorOf } from '../read-model/visit-rows';
import { AgentScope } from '../shared/agent-scope';

export class BotSummaryDto {
  @ApiProperty({ example: 'GPTBot' }) botName!: string;
  @ApiProperty({ example: 'OpenAI' }) operator!: string;
  @ApiProperty({ enum: BOT_CATEGORIES, example: 'training' }) category!: string;
  @ApiProperty({ type: 'integer', example: 420 }) visits!: number;
  @ApiProperty({ type: 'integer', example: 400 }) verifiedVisits!: number;
  @ApiProperty({ type: 'integer', example: 20 }) spoofedVisits!: number;
  @ApiProperty({ type: 'integer', example: 0 }) unverifiableVisits!: number;
  @ApiProperty({ type: RateDto, description: 'Verified visits / visits' }) verifiedShare!: RateDto;
  @ApiProperty({ enum: ['verified', 'spoofed', 'unverifiable'], description: 'The status of most of its visits', example: 'verified' }) verification!: string;
  @ApiProperty({ type: 'string', format: 'date-time', example: '2026-11-24T08:15:02.114Z' }) lastSeen!: string;
  @ApiProperty({ type: CrawlBlockDto, description: 'The crawl_block signal of this agent over the site' }) crawlBlock!: CrawlBlockDto;
}

export class BotsResponse {
  @ApiProperty({ type: [BotSummaryDto] }) data!: BotSummaryDto[];
}

@ApiTags('Agent analytics')
@Controller('api/v1/agent-analytics')
export class BotsController {
  constructor(
    private readonly scopes: AgentScope,
    private readonly reads: AgentReads,
  ) {}

  @Get('bots')
  @RequireScope('read:agent-analytics')
  @ApiOperation({ operationId: 'agent_analytics_bots', summary: 'Per AI agent over the last days: visits, verification, last seen and the crawl_block signal, most visits first' })
  @ApiOkResponse({
    type: BotsResponse,
    example: {
      data: [
        { botName: 'GPTBot', operator: 'OpenAI', category: 'training', visits: 420, verifiedVisits: 400, spoofedVisits: 20, unverifiableVisits: 0, verifiedShare: { value: 0.9524, n: 420, low: 0.9278, high: 0.9689 }, verification: 'verified', lastSeen: '2026-11-24T08:15:02.114Z', crawlBlock: { errorShare: { value: 0.05, n: 420, low: 0.0335, high: 0.0754 }, disallowedShare: { value: 0, n: 420, low: 0, high: 0.0091 }, errorVisits: 21, disallowedVisits: 0 } },
      ],
    },
  })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this brandId' })
  async bots(@CurrentPrincipal() p: Principal, @Query() q: AgentDaysQuery): Promise<BotsResponse> {
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
