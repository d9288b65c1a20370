import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandPeriodQuery } from '@libs/http';
import { CHANGE_SUMMARY_EXAMPLE } from './change-summary.example';
import { ChangeSummaryResponse } from './change-summary.response.dto';
import { ChangeSummary } from './change-summary.query';

@ApiTags('Changes')
@Controller('api/v1/changes')
export class ChangeSummaryController {
  constructor(private readonly changeSummary: ChangeSummary) {}

  @Get('summary')
  @RequireScope('read:changes')
  @ApiOperation({ operationId: 'changes_summary', summary: "The brand's detected changes over the last `days` (default 30) or a period, counted by type and severity" })
  @ApiOkResponse({ type: ChangeSummaryResponse, example: CHANGE_SUMMARY_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  summary(@CurrentPrincipal() p: Principal, @Query() q: BrandPeriodQuery): Promise<ChangeSummaryResponse> {
    return this.changeSummary.read(p, q);
  }
}
