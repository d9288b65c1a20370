import { Controller, Get, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ApiError, ParseIdPipe } from '@libs/http';
import { AnalysisRunResponse } from '../read-model/analysis-record.dto';
import { AnalysisReads } from '../read-model/analysis-reads';
import { CostReads } from '../read-model/cost-reads';
import { ANALYSIS_RUN_EXAMPLE } from './get-analysis-run.example';

@ApiTags('Analysis')
@Controller('api/v1/analysis-runs')
export class GetAnalysisRunController {
  constructor(
    private readonly reads: AnalysisReads,
    private readonly costs: CostReads,
  ) {}

  @Get(':id')
  @RequireScope('read:analysis')
  @ApiOperation({ operationId: 'analysis_runs_get', summary: 'One analysis run: status, counts and cost',
    description:
      'cost: the tokens the providers reported for the run’s answers and their price in USD, overall and per provider, computed when read from the price table in force on each answer’s day (PROVIDER_PRICES; defaults dated in docs/decisions.md). A run a budget stopped has status partial and reason budget_exhausted.',
  })
  @ApiOkResponse({ type: AnalysisRunResponse, example: ANALYSIS_RUN_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No run the caller may see has this id' })
  async get(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number): Promise<AnalysisRunResponse> {
    const run = await this.reads.run(p, id);
    if (!run) throw ApiError.notFound(`Analysis run ${id}`);
    return { data: { ...run, cost: await this.costs.run(p, id, run.providers) } };
  }
}
