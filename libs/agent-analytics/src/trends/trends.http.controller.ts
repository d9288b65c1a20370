import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { eachDay } from '@libs/metrics';
import { AgentDaysQuery } from '../agent-queries';
import { BOT_CATEGORIES } from '../domain/bot-catalogue';
import { AgentReads, AGENT_SQL } from '../read-model/agent-reads';
import { AgentScope } from '../shared/agent-scope';

export class CategoryCountsDto {
  @ApiProperty({ type: 'integer' }) training!: number;
  @ApiProperty({ type: 'integer' }) search!: number;
  @ApiProperty({ type: 'integer', name: 'user-triggered' }) 'user-triggered'!: number;
  @ApiProperty({ type: 'integer' }) agent!: number;
}

export class TrendDayDto {
  @ApiProperty({ type: 'string', format: 'date', example: '2026-11-24' }) date!: string;
  @ApiProperty({ type: 'integer', description: 'Visits of AI agents that day (UTC)', example: 57 }) visits!: number;
  @ApiProperty({ type: CategoryCountsDto }) byCategory!: CategoryCountsDto;
  @ApiProperty({ type: 'integer', example: 50 }) verified!: number;
  @ApiProperty({ type: 'integer', description: 'Spoofed and unverifiable visits', example: 7 }) unverified!: number;
  @ApiProperty({ type: 'integer', example: 2 }) spoofed!: number;
}

export class AgentTrendsDto {
  @ApiProperty({ type: 'string', format: 'date' }) startDate!: string;
  @ApiProperty({ type: 'string', format: 'date' }) endDate!: string;
  @ApiProperty({ type: [TrendDayDto], description: 'Every day of the period, oldest first (a day without visits counts 0)' }) days!: TrendDayDto[];
}

export class AgentTrendsResponse {
  @ApiProperty({ type: AgentTrendsDto }) data!: AgentTrendsDto;
}

@ApiTags('Agent analytics')
@Controller('api/v1/agent-analytics')
export class TrendsController {
  constructor(
    private readonly scopes: AgentScope,
    private readonly reads: AgentReads,
  ) {}

  @Get('trends')
  @RequireScope('read:agent-analytics')
  @ApiOperation({ operationId: 'agent_analytics_trends', summary: 'Daily visits of AI agents per category, verified and unverified' })
  @ApiOkResponse({
    type: AgentTrendsResponse,
    example: {
      data: {
        startDate: '2026-11-23',
        endDate: '2026-11-24',
        days: [
          { date: '2026-11-23', visits: 57, byCategory: { training: 30, search: 20, 'user-triggered': 7, agent: 0 }, verified: 50, unverified: 7, spoofed: 2 },
          { date: '2026-11-24', visits: 0, byCategory: { training: 0, search: 0, 'user-triggered': 0, agent: 0 }, verified: 0, unverified: 0, spoofed: 0 },
        ],
      },
    },
  })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this brandId' })
  async trends(@CurrentPrincipal() p: Principal, @Query() q: AgentDaysQuery): Promise<AgentTrendsResponse> {
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
