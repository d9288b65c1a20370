import { Injectable } from '@nestjs/common';
import { AnswerScope } from '@libs/analysis';
import { type Principal } from '@libs/auth';
import { page, sortColumn } from '@libs/http';
import { changePageSql } from '../read-model/change-reads';
import { changeRecord, changeRowFromSql } from '../read-model/change-record';
import type { ChangePage } from './list-changes.response.dto';
import { Reads } from '../read-model/reads';
import { CHANGE_SORTS, ListChangesQuery } from './list-changes.request.dto';

/** The read behind `GET /api/v1/changes`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class ListChanges {
  constructor(
    private readonly scopes: AnswerScope,
    private readonly reads: Reads,
  ) {}

  async read(p: Principal, q: ListChangesQuery): Promise<ChangePage> {
    const scope = await this.scopes.period(p, q);
    const column = sortColumn(q.sort, CHANGE_SORTS, 'detectedAt');
    const sql = (limit: number, offset: number) => changePageSql(scope.filter, { types: q.changeType, severities: q.severity, column, order: q.order, limit, offset });
    const rows = await this.reads.rows<Record<string, unknown> & { total: number }>(sql(q.limit, q.offset));
    const total = rows[0]?.total ?? (q.offset > 0 ? ((await this.reads.rows<{ total: number }>(sql(1, 0)))[0]?.total ?? 0) : 0);
    return page(rows.map((r) => changeRecord(changeRowFromSql(r))), total, q);
  }
}
