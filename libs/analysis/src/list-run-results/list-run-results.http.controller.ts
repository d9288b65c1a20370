import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { PaginationQuery, ParseIdPipe } from '@libs/http';
import { AnalysisResultListResponse } from './list-run-results.response.dto';
import { RUN_RESULTS_EXAMPLE } from './list-run-results.example';
import { ListRunResults } from './list-run-results.query';

@ApiTags('Analysis')
@Controller('api/v1/analysis-runs')
export class ListRunResultsController {
  constructor(private readonly listRunResults: ListRunResults) {}

  @Get(':id/results')
  @RequireScope('read:analysis')
  @ApiOperation({ operationId: 'analysis_runs_results', summary: "A run's answers, one per query and provider, in the run's order (paginated)", description: 'order: asc or desc over the run order (default desc).' })
  @ApiOkResponse({ type: AnalysisResultListResponse, example: RUN_RESULTS_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No run the caller may see has this id' })
  list(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number, @Query() q: PaginationQuery): Promise<AnalysisResultListResponse> {
    return this.listRunResults.read(p, id, q);
  }
}
