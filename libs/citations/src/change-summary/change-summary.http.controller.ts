import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandPeriodQuery } from '@libs/http';
import { CHANGE_TYPES, SEVERITIES, type Severity } from '../domain';
import { changeCountsSql } from '../read-model/change-reads';
import { Reads } from '../read-model/reads';
import { CitationsScope } from '../shared/citations-scope';
import { CHANGE_SUMMARY_EXAMPLE } from './change-summary.example';
import { ChangeSummaryResponse } from './change-summary.response.dto';

const none = (): Record<Severity, number> => ({ low: 0, medium: 0, high: 0 });

@ApiTags('Changes')
@Controller('api/v1/changes')
export class ChangeSummaryController {
  constructor(
    private readonly scopes: CitationsScope,
    private readonly reads: Reads,
  ) {}

  @Get('summary')
  @RequireScope('read:changes')
  @ApiOperation({ operationId: 'changes_summary', summary: "The brand's detected changes over the last `days` (default 30) or a period, counted by type and severity" })
  @ApiOkResponse({ type: ChangeSummaryResponse, example: CHANGE_SUMMARY_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  async summary(@CurrentPrincipal() p: Principal, @Query() q: BrandPeriodQuery): Promise<ChangeSummaryResponse> {
    const scope = await this.scopes.period(p, q);
    const rows = await this.reads.rows<{ change_type: string; severity: Severity; changes: number }>(changeCountsSql(scope.filter));
    const bySeverity = none();
    const byType = new Map(CHANGE_TYPES.map((t) => [t as string, none()]));
    for (const r of rows) {
      bySeverity[r.severity] += r.changes;
      byType.get(r.change_type)![r.severity] += r.changes;
    }
    const sum = (c: Record<Severity, number>) => SEVERITIES.reduce((n, s) => n + c[s], 0);
    return {
      data: {
        startDate: scope.filter.start,
        endDate: scope.filter.end,
        total: sum(bySeverity),
        bySeverity,
        byType: [...byType].map(([changeType, c]) => ({ changeType, total: sum(c), ...c })),
      },
    };
  }
}
