import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { RateDto } from '@libs/http';
import { rate } from '@libs/metrics';
import { AgentDaysQuery } from '../agent-queries';
import { AgentReads, AGENT_SQL } from '../read-model/agent-reads';
import { AgentScope } from '../shared/agent-scope';

export class AgentOverviewDto {
  @ApiProperty({ type: 'string', format: 'date', example: '2026-10-26' }) startDate!: string;
  @ApiProperty({ type: 'string', format: 'date', example: '2026-11-24' }) endDate!: string;
  @ApiProperty({ type: 'integer', description: 'Visits of AI agents', example: 1250 }) visits!: number;
  @ApiProperty({ type: 'integer', example: 980 }) verifiedVisits!: number;
  @ApiProperty({ type: 'integer', description: 'Visits claiming a verifiable agent that failed its check', example: 40 }) spoofedVisits!: number;
  @ApiProperty({ type: 'integer', example: 230 }) unverifiableVisits!: number;
  @ApiProperty({ type: RateDto, description: 'Verified visits / visits' }) verifiedShare!: RateDto;
  @ApiProperty({ type: 'integer', description: 'Distinct agents seen', example: 9 }) uniqueBots!: number;
  @ApiProperty({ type: 'integer', description: 'Distinct pages (host and path, without query) agents fetched', example: 312 }) pagesCrawled!: number;
  @ApiProperty({ type: 'integer', description: 'Human visits sent by AI assistants', example: 57 }) aiReferralVisits!: number;
}

export class AgentOverviewResponse {
  @ApiProperty({ type: AgentOverviewDto }) data!: AgentOverviewDto;
}

@ApiTags('Agent analytics')
@Controller('api/v1/agent-analytics')
export class OverviewController {
  constructor(
    private readonly scopes: AgentScope,
    private readonly reads: AgentReads,
  ) {}

  @Get('overview')
  @RequireScope('read:agent-analytics')
  @ApiOperation({ operationId: 'agent_analytics_overview', summary: 'Totals of the last days: AI-agent visits (verified, spoofed, unverifiable), distinct agents and pages, AI referral visits' })
  @ApiOkResponse({
    type: AgentOverviewResponse,
    example: { data: { startDate: '2026-10-26', endDate: '2026-11-24', visits: 1250, verifiedVisits: 980, spoofedVisits: 40, unverifiableVisits: 230, verifiedShare: { value: 0.784, n: 1250, low: 0.7605, high: 0.8058 }, uniqueBots: 9, pagesCrawled: 312, aiReferralVisits: 57 } },
  })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this brandId' })
  async overview(@CurrentPrincipal() p: Principal, @Query() q: AgentDaysQuery): Promise<AgentOverviewResponse> {
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
