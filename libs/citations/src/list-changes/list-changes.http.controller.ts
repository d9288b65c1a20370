import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { page, PageOf, sortColumn } from '@libs/http';
import { changePageSql } from '../read-model/change-reads';
import { changeRecord, changeRowFromSql } from '../read-model/change-record';
import { ChangeDto } from '../read-model/change.dto';
import { Reads } from '../read-model/reads';
import { CitationsScope } from '../shared/citations-scope';
import { LIST_CHANGES_EXAMPLE } from './list-changes.example';
import { CHANGE_SORTS, ListChangesQuery } from './list-changes.request.dto';

export class ChangePage extends PageOf(ChangeDto) {}

@ApiTags('Changes')
@Controller('api/v1')
export class ListChangesController {
  constructor(
    private readonly scopes: CitationsScope,
    private readonly reads: Reads,
  ) {}

  @Get('changes')
  @RequireScope('read:changes')
  @ApiOperation({
    operationId: 'changes_list',
    summary:
      'Changes detected between consecutive answers to the same prompt by the same provider (DESIGN §14) in the period (default the last 30 days): the two answers compared, the prompt, the provider, the entity before and after, and the severity',
  })
  @ApiOkResponse({ type: ChangePage, example: LIST_CHANGES_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  async list(@CurrentPrincipal() p: Principal, @Query() q: ListChangesQuery): Promise<ChangePage> {
    const scope = await this.scopes.period(p, q);
    const column = sortColumn(q.sort, CHANGE_SORTS, 'detectedAt');
    const sql = (limit: number, offset: number) => changePageSql(scope.filter, { types: q.changeType, severities: q.severity, column, order: q.order, limit, offset });
    const rows = await this.reads.rows<Record<string, unknown> & { total: number }>(sql(q.limit, q.offset));
    const total = rows[0]?.total ?? (q.offset > 0 ? ((await this.reads.rows<{ total: number }>(sql(1, 0)))[0]?.total ?? 0) : 0);
    return page(rows.map((r) => changeRecord(changeRowFromSql(r))), total, q);
  }
}
