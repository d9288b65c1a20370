import { Controller, Get, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ParseIdPipe } from '@libs/http';
import { AnalysisRunResponse } from './get-analysis-run.response.dto';
import { ANALYSIS_RUN_EXAMPLE } from './get-analysis-run.example';
import { GetAnalysisRun } from './get-analysis-run.query';

@ApiTags('Analysis')
@Controller('api/v1/analysis-runs')
export class GetAnalysisRunController {
  constructor(private readonly getAnalysisRun: GetAnalysisRun) {}

  @Get(':id')
  @RequireScope('read:analysis')
  @ApiOperation({ operationId: 'analysis_runs_get', summary: 'One analysis run: status and counts' })
  @ApiOkResponse({ type: AnalysisRunResponse, example: ANALYSIS_RUN_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No run the caller may see has this id' })
  get(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number): Promise<AnalysisRunResponse> {
    return this.getAnalysisRun.read(p, id);
  }
}
