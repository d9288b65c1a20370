import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ListAnalysisResultsQuery } from './list-analysis-results.request.dto';
import { ANALYSIS_RESULTS_EXAMPLE } from './list-analysis-results.example';
import { AnalysisResultsPage } from './list-analysis-results.response.dto';
import { ListAnalysisResults } from './list-analysis-results.query';

@ApiTags('Analysis')
@Controller('api/v1/analysis-results')
export class ListAnalysisResultsController {
  constructor(private readonly listAnalysisResults: ListAnalysisResults) {}

  @Get()
  @RequireScope('read:analysis')
  @ApiOperation({ operationId: 'analysis_results_list', summary: 'Answers across runs, newest first (paginated)', description: 'startDate and endDate are UTC days, both included; text keeps the answers containing it.' })
  @ApiOkResponse({ type: AnalysisResultsPage, example: ANALYSIS_RESULTS_EXAMPLE })
  @ApiNotFoundResponse({ description: 'brandId names no brand the caller may see' })
  list(@CurrentPrincipal() p: Principal, @Query() q: ListAnalysisResultsQuery): Promise<AnalysisResultsPage> {
    return this.listAnalysisResults.read(p, q);
  }
}
