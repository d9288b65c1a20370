import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { PageOf, SortBy, sortFields } from '@libs/http';
import { ChannelRows, ChannelRowsQuery } from '../channel-rows.query';
import { DailyRowDto, Figure as n } from '../daily-row.dto';
import type { RowTable } from '../read-model/row-reads';
import { CONTENT_EXAMPLE, page as examplePage } from '../shared/examples';


/** A page's day on a channel: a GA4 landing page, or a Search Console page and query. */
export class ContentRowDto extends DailyRowDto {
  @ApiProperty({ example: 'https://acme.example/pricing', description: 'Landing page (GA4: its path) or page URL (Search Console)' }) page!: string;
  @ApiProperty({ type: 'string', nullable: true, description: 'The search query (Search Console); null for a landing page' }) query!: string | null;
  @n('Sessions (ga4)') sessions!: number | null;
  @n('Page views (ga4)') pageviews!: number | null;
  @n('Conversions (ga4 key events)') conversions!: number | null;
  @n('Revenue (ga4)') revenue!: number | null;
  @n('Search clicks (search_console)') clicks!: number | null;
  @n('Search impressions (search_console)') impressions!: number | null;
  @n('Average search position (search_console)') position!: number | null;
}
export class ContentPage extends PageOf(ContentRowDto) {}

const TABLE: RowTable = {
  table: 'channel_content_daily',
  fields: { page: 'page', query: "nullif(query, '')", sessions: 'sessions', pageviews: 'pageviews', conversions: 'conversions', revenue: 'revenue', clicks: 'clicks', impressions: 'impressions', position: 'position' },
  numeric: ['sessions', 'pageviews', 'conversions', 'revenue', 'clicks', 'impressions', 'position'],
  tiebreak: 'page, query',
};
const SORTS = sortFields({ date: 'day', page: 'page', sessions: 'sessions', clicks: 'clicks', impressions: 'impressions', position: 'position', revenue: 'revenue' });

export class ListContentQuery extends ChannelRowsQuery {
  @SortBy(SORTS, 'date')
  sort?: string;
}

@ApiTags('Channels')
@Controller('api/v1/content')
export class ListContentController {
  constructor(private readonly rows: ChannelRows) {}

  @Get()
  @RequireScope('read:metrics')
  @ApiOperation({ operationId: 'content_list', summary: 'Daily content rows of the connected channels: GA4 landing pages (sessions, page views, conversions, revenue), Search Console pages by query (clicks, impressions, position)' })
  @ApiOkResponse({ type: ContentPage, example: examplePage(CONTENT_EXAMPLE) })
  @ApiNotFoundResponse({ description: 'No client or brand the caller may see has this id' })
  async list(@CurrentPrincipal() p: Principal, @Query() q: ListContentQuery): Promise<ContentPage> {
    return this.rows.list<ContentRowDto>(p, q, TABLE, SORTS);
  }
}
