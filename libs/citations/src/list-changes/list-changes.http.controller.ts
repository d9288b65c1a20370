import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { LIST_CHANGES_EXAMPLE } from './list-changes.example';
import { ListChangesQuery } from './list-changes.request.dto';
import { ListChanges } from './list-changes.query';
import { ChangePage } from './list-changes.response.dto';

@ApiTags('Changes')
@Controller('api/v1')
export class ListChangesController {
  constructor(private readonly listChanges: ListChanges) {}

  @Get('changes')
  @RequireScope('read:changes')
  @ApiOperation({
    operationId: 'changes_list',
    summary:
      'Changes detected between consecutive answers to the same prompt by the same provider (DESIGN §14) in the period (default the last 30 days): the two answers compared, the prompt, the provider, the entity before and after, and the severity',
  })
  @ApiOkResponse({ type: ChangePage, example: LIST_CHANGES_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  list(@CurrentPrincipal() p: Principal, @Query() q: ListChangesQuery): Promise<ChangePage> {
    return this.listChanges.read(p, q);
  }
}
