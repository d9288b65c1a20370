import { Controller, Get, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ApiError, ParseIdPipe } from '@libs/http';
import { AnalysisRunResponse } from '../read-model/analysis-record.dto';
import { AnalysisReads } from '../read-model/analysis-reads';
import { ANALYSIS_RUN_EXAMPLE } from './get-analysis-run.example';

@ApiTags('Analysis')
@Controller('api/v1/analysis-runs')
export class GetAnalysisRunController {
  constructor(private readonly reads: AnalysisReads) {}

  @Get(':id')
  @RequireScope('read:analysis')
  @ApiOperation({ operationId: 'analysis_runs_get', summary: 'One analysis run: status and counts' })
  @ApiOkResponse({ type: AnalysisRunResponse, example: ANALYSIS_RUN_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No run the caller may see has this id' })
  async get(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number): Promise<AnalysisRunResponse> {
    const run = await this.reads.run(p, id);
    if (!run) throw ApiError.notFound(`Analysis run ${id}`);
    return { data: run };
  }
}
