import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { queryInteger } from '@libs/http';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandAccess } from '@libs/tenancy';
import { OutcomesSummaryResponse } from '../opportunity.dto';
import { OutcomesSummary } from './outcomes-summary.query';
import { ReadYourWrites } from '../read-your-writes';
import { BrandFilterQuery } from '../shared/brand-filter.query';

class OutcomesQuery extends BrandFilterQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 365, default: 90, description: 'Opportunities resolved in the last N days' })
  @IsOptional()
  @Transform(queryInteger)
  @IsInt({ message: 'sinceDays must be an integer from 1 to 365' })
  @Min(1, { message: 'sinceDays must be an integer from 1 to 365' })
  @Max(365, { message: 'sinceDays must be an integer from 1 to 365' })
  sinceDays: number = 90;
}

@ApiTags('Outcomes')
@Controller('api/v1/outcomes/_summary')
export class OutcomesSummaryController {
  constructor(
    private readonly outcomes: OutcomesSummary,
    private readonly ryw: ReadYourWrites,
    private readonly brands: BrandAccess,
  ) {}

  @Get()
  @RequireScope('read:outcomes')
  @ApiOperation({ summary: 'Outcome rows of opportunities resolved in the window, with totals' })
  @ApiOkResponse({ type: OutcomesSummaryResponse })
  async summary(@CurrentPrincipal() p: Principal, @Query() q: OutcomesQuery): Promise<OutcomesSummaryResponse> {
    if (q.brandId !== undefined) await this.brands.assertVisible(p, q.brandId);
    await this.ryw.waitFor(p.subject, ['opportunity_outcomes']);
    return { data: await this.outcomes.summary(p, q.sinceDays, q.brandId) };
  }
}
