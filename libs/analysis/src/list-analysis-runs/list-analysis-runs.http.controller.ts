import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ListAnalysisRunsQuery } from './list-analysis-runs.request.dto';
import { AnalysisRunListResponse } from './list-analysis-runs.response.dto';
import { ANALYSIS_RUNS_EXAMPLE } from './list-analysis-runs.example';
import { ListAnalysisRuns } from './list-analysis-runs.query';

@ApiTags('Analysis')
@Controller('api/v1/analysis-runs')
export class ListAnalysisRunsController {
  constructor(private readonly listAnalysisRuns: ListAnalysisRuns) {}

  @Get()
  @RequireScope('read:analysis')
  @ApiOperation({ operationId: 'analysis_runs_list', summary: 'Analysis runs, newest first (paginated)', description: 'sort: createdAt (default), id or completedAt; order: desc (default) or asc.' })
  @ApiOkResponse({ type: AnalysisRunListResponse, example: ANALYSIS_RUNS_EXAMPLE })
  @ApiNotFoundResponse({ description: 'brandId names no brand the caller may see' })
  list(@CurrentPrincipal() p: Principal, @Query() q: ListAnalysisRunsQuery): Promise<AnalysisRunListResponse> {
    return this.listAnalysisRuns.read(p, q);
  }
}
