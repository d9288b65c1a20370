import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { CONTENT_EXAMPLE, page as examplePage } from '../shared/examples';
import { ContentPage } from './list-content.response.dto';
import { ListContentQuery } from './list-content.request.dto';
import { ListContent } from './list-content.query';

@ApiTags('Channels')
@Controller('api/v1/content')
export class ListContentController {
  constructor(private readonly listContent: ListContent) {}

  @Get()
  @RequireScope('read:metrics')
  @ApiOperation({ operationId: 'content_list', summary: 'Daily content rows of the connected channels: GA4 landing pages (sessions, page views, conversions, revenue), Search Console pages by query (clicks, impressions, position)' })
  @ApiOkResponse({ type: ContentPage, example: examplePage(CONTENT_EXAMPLE) })
  @ApiNotFoundResponse({ description: 'No client or brand the caller may see has this id' })
  list(@CurrentPrincipal() p: Principal, @Query() q: ListContentQuery): Promise<ContentPage> {
    return this.listContent.read(p, q);
  }
}
