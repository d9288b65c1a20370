import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { AUDIENCE_EXAMPLE, page as examplePage } from '../shared/examples';
import { AudiencePage } from './list-audiences.response.dto';
import { ListAudienceQuery } from './list-audiences.request.dto';
import { ListAudiences } from './list-audiences.query';

@ApiTags('Channels')
@Controller('api/v1/audiences')
export class ListAudienceController {
  constructor(private readonly listAudience: ListAudiences) {}

  @Get()
  @RequireScope('read:metrics')
  @ApiOperation({ operationId: 'audiences_list', summary: 'Daily audience rows of the connected channels (GA4 audiences) with sessions, users, new users, conversions and revenue' })
  @ApiOkResponse({ type: AudiencePage, example: examplePage(AUDIENCE_EXAMPLE) })
  @ApiNotFoundResponse({ description: 'No client or brand the caller may see has this id' })
  list(@CurrentPrincipal() p: Principal, @Query() q: ListAudienceQuery): Promise<AudiencePage> {
    return this.listAudience.read(p, q);
  }
}
