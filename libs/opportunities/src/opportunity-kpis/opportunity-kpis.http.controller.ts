import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandAccess } from '@libs/tenancy';
import { KpisResponse } from '../opportunity.dto';
import { OpportunityKpis } from './opportunity-kpis.query';
import { ReadYourWrites } from '../read-your-writes';
import { BrandFilterQuery } from '../shared/brand-filter.query';

class KpisQuery extends BrandFilterQuery {}

@ApiTags('Opportunities')
@Controller('api/v1/opportunities/_summary')
export class OpportunityKpisController {
  constructor(
    private readonly kpiSummary: OpportunityKpis,
    private readonly ryw: ReadYourWrites,
    private readonly brands: BrandAccess,
  ) {}

  @Get('kpis')
  @RequireScope('read:opportunities')
  @ApiOperation({ summary: 'Counts by status and severity, and the SLA breach total now' })
  @ApiOkResponse({ type: KpisResponse })
  async kpis(@CurrentPrincipal() p: Principal, @Query() q: KpisQuery): Promise<KpisResponse> {
    if (q.brandId !== undefined) await this.brands.assertVisible(p, q.brandId);
    await this.ryw.waitFor(p.subject, ['opportunities', 'opportunity_counts']);
    return { data: await this.kpiSummary.summary(p, q.brandId) };
  }
}
