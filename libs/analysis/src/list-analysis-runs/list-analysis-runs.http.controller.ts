import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { page, sortColumn } from '@libs/http';
import { BrandAccess } from '@libs/tenancy';
import { AnalysisReads } from '../read-model/analysis-reads';
import { ListAnalysisRunsQuery, RUN_SORTS } from './list-analysis-runs.request.dto';
import { AnalysisRunListResponse } from './list-analysis-runs.response.dto';
import { ANALYSIS_RUNS_EXAMPLE } from './list-analysis-runs.example';

@ApiTags('Analysis')
@Controller('api/v1/analysis-runs')
export class ListAnalysisRunsController {
  constructor(
    private readonly brands: BrandAccess,
    private readonly reads: AnalysisReads,
  ) {}

  @Get()
  @RequireScope('read:analysis')
  @ApiOperation({ operationId: 'analysis_runs_list', summary: 'Analysis runs, newest first (paginated)', description: 'sort: createdAt (default), id or completedAt; order: desc (default) or asc.' })
  @ApiOkResponse({ type: AnalysisRunListResponse, example: ANALYSIS_RUNS_EXAMPLE })
  @ApiNotFoundResponse({ description: 'brandId names no brand the caller may see' })
  async list(@CurrentPrincipal() p: Principal, @Query() q: ListAnalysisRunsQuery): Promise<AnalysisRunListResponse> {
    if (q.brandId !== undefined) await this.brands.assertVisible(p, q.brandId);
    const { rows, total } = await this.reads.runs(p, { brandId: q.brandId, limit: q.limit, offset: q.offset, order: q.order, sortColumn: sortColumn(q.sort, RUN_SORTS, 'createdAt') });
    return page(rows, total, q);
  }
}
