import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { CurrentPrincipal, RequireScope, type Principal } from '../../../auth/src';
import { KpisResponse } from '../opportunity.dto';
import { OpportunityQueries } from '../opportunity-queries';
import { ReadYourWrites } from '../read-your-writes';

class KpisQuery {
  @ApiPropertyOptional({ description: 'Only this brand' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'brandId must be a positive integer' })
  @Min(1, { message: 'brandId must be a positive integer' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'brandId must be a positive integer' })
  brandId?: number;
}

@ApiTags('Opportunities')
@Controller('api/v1/opportunities/_summary')
export class OpportunityKpisController {
  constructor(
    private readonly queries: OpportunityQueries,
    private readonly ryw: ReadYourWrites,
  ) {}

  @Get('kpis')
  @RequireScope('read:opportunities')
  @ApiOperation({ summary: 'Counts by status and severity, and the SLA breach total now' })
  @ApiOkResponse({ type: KpisResponse })
  async kpis(@CurrentPrincipal() p: Principal, @Query() q: KpisQuery): Promise<KpisResponse> {
    await this.ryw.waitFor(p.subject, ['opportunities', 'opportunity_counts']);
    return { data: await this.queries.kpis(p, q.brandId) };
  }
}
