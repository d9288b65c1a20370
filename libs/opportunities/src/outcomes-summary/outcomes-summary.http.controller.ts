import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { queryInteger } from '@libs/http';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { OutcomesSummaryResponse } from '../opportunity.dto';
import { OpportunityQueries } from '../opportunity-queries';
import { ReadYourWrites } from '../read-your-writes';
import { BrandFilterQuery } from '../shared/brand-filter.query';

class OutcomesQuery extends BrandFilterQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 365, default: 90, description: 'Opportunities resolved in the last N days' })
  @IsOptional()
  @Transform(queryInteger)
  @IsInt({ message: 'sinceDays must be an integer from 1 to 365' })
  @Min(1, { message: 'sinceDays must be an integer from 1 to 365' })
  @Max(365, { message: 'sinceDays must be an integer from 1 to 365' })
  sinceDays: number = 90;
}

const sum = (xs: (number | null)[]) => xs.reduce<number>((a, x) => a + (x ?? 0), 0);
const avg = (xs: (number | null)[]) => {
  const known = xs.filter((x): x is number => x !== null);
  return known.length ? sum(known) / known.length : null;
};

@ApiTags('Outcomes')
@Controller('api/v1/outcomes/_summary')
export class OutcomesSummaryController {
  constructor(
    private readonly queries: OpportunityQueries,
    private readonly ryw: ReadYourWrites,
  ) {}

  @Get()
  @RequireScope('read:outcomes')
  @ApiOperation({ summary: 'Outcome rows of opportunities resolved in the window, with totals' })
  @ApiOkResponse({ type: OutcomesSummaryResponse })
  async summary(@CurrentPrincipal() p: Principal, @Query() q: OutcomesQuery): Promise<OutcomesSummaryResponse> {
    await this.ryw.waitFor(p.subject, ['opportunity_outcomes']);
    const rows = await this.queries.outcomes(p, q.sinceDays, q.brandId);
    const final = rows.filter((r) => r.finalizedAt !== null);
    const to = new Date();
    return {
      data: {
        sinceDays: q.sinceDays,
        from: new Date(to.getTime() - q.sinceDays * 86_400_000).toISOString(),
        to: to.toISOString(),
        totals: {
          resolved: rows.length,
          withOutcome: final.length,
          citationRateBeforeAvg: avg(final.map((r) => r.citationRateBefore)),
          citationRateAfterAvg: avg(final.map((r) => r.citationRateAfter)),
          aiTrafficBefore: sum(final.map((r) => r.aiTrafficBefore)),
          aiTrafficAfter: sum(final.map((r) => r.aiTrafficAfter)),
          conversions: sum(final.map((r) => r.conversions)),
          revenue: sum(final.map((r) => r.revenue)),
        },
        rows,
      },
    };
  }
}
