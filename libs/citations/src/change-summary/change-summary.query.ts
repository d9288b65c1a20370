import { Injectable } from '@nestjs/common';
import { AnswerScope } from '@libs/analysis';
import { type Principal } from '@libs/auth';
import { BrandPeriodQuery } from '@libs/http';
import { CHANGE_TYPES, SEVERITIES, type Severity } from '../domain';
import { changeCountsSql } from '../read-model/change-reads';
import { Reads } from '../read-model/reads';
import { ChangeSummaryResponse } from './change-summary.response.dto';

const none = (): Record<Severity, number> => ({ low: 0, medium: 0, high: 0 });

/** The read behind `GET /api/v1/changes/summary`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class ChangeSummary {
  constructor(
    private readonly scopes: AnswerScope,
    private readonly reads: Reads,
  ) {}

  async read(p: Principal, q: BrandPeriodQuery): Promise<ChangeSummaryResponse> {
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
