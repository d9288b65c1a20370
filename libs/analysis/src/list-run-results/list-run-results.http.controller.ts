import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ApiError, page, PaginationQuery, ParseIdPipe } from '@libs/http';
import { AnalysisReads } from '../read-model/analysis-reads';
import { AnalysisResultListResponse } from './list-run-results.response.dto';
import { RUN_RESULTS_EXAMPLE } from './list-run-results.example';

@ApiTags('Analysis')
@Controller('api/v1/analysis-runs')
export class ListRunResultsController {
  constructor(private readonly reads: AnalysisReads) {}

  @Get(':id/results')
  @RequireScope('read:analysis')
  @ApiOperation({ operationId: 'analysis_runs_results', summary: "A run's answers, one per query and provider, in the run's order (paginated)", description: 'order: asc or desc over the run order (default desc).' })
  @ApiOkResponse({ type: AnalysisResultListResponse, example: RUN_RESULTS_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No run the caller may see has this id' })
  async list(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number, @Query() q: PaginationQuery): Promise<AnalysisResultListResponse> {
    if (!(await this.reads.run(p, id))) throw ApiError.notFound(`Analysis run ${id}`);
    const { rows, total } = await this.reads.results(p, { runId: id, limit: q.limit, offset: q.offset, order: q.order });
    return page(rows, total, q);
  }
}
