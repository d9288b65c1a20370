import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { page, PageOf } from '@libs/http';
import { addDays } from '@libs/metrics';
import { BrandAccess } from '@libs/tenancy';
import { AnalysisResultDto } from '../read-model/analysis-record.dto';
import { AnalysisReads } from '../read-model/analysis-reads';
import { ListAnalysisResultsQuery } from './list-analysis-results.request.dto';
import { ANALYSIS_RESULTS_EXAMPLE } from './list-analysis-results.example';

export class AnalysisResultsPage extends PageOf(AnalysisResultDto) {}

@ApiTags('Analysis')
@Controller('api/v1/analysis-results')
export class ListAnalysisResultsController {
  constructor(
    private readonly brands: BrandAccess,
    private readonly reads: AnalysisReads,
  ) {}

  @Get()
  @RequireScope('read:analysis')
  @ApiOperation({ operationId: 'analysis_results_list', summary: 'Answers across runs, newest first (paginated)', description: 'startDate and endDate are UTC days, both included; text keeps the answers containing it.' })
  @ApiOkResponse({ type: AnalysisResultsPage, example: ANALYSIS_RESULTS_EXAMPLE })
  @ApiNotFoundResponse({ description: 'brandId names no brand the caller may see' })
  async list(@CurrentPrincipal() p: Principal, @Query() q: ListAnalysisResultsQuery): Promise<AnalysisResultsPage> {
    if (q.brandId !== undefined) await this.brands.assertVisible(p, q.brandId);
    const { rows, total } = await this.reads.results(p, {
      brandId: q.brandId,
      provider: q.provider,
      from: q.startDate === undefined ? undefined : `${q.startDate}T00:00:00Z`,
      to: q.endDate === undefined ? undefined : `${addDays(q.endDate, 1)}T00:00:00Z`,
      text: q.text,
      limit: q.limit,
      offset: q.offset,
      order: q.order,
    });
    return page(rows, total, q);
  }
}
