import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { PageOf, SortBy, sortFields } from '@libs/http';
import { ChannelRows, ChannelRowsQuery } from '../channel-rows.query';
import { DailyRowDto, Figure as n } from '../daily-row.dto';
import type { RowTable } from '../read-model/row-reads';
import { METRIC_EXAMPLE, page as examplePage } from '../shared/examples';


/** A daily metric row (DESIGN §13.3); a figure the channel does not have is null, never 0. */
export class MetricRowDto extends DailyRowDto {
  @n('Sessions (ga4, import, ai_referrals)') sessions!: number | null;
  @n('Users (ga4 totalUsers, import)') users!: number | null;
  @n('New users') newUsers!: number | null;
  @n('Page views (ga4 screenPageViews)') pageviews!: number | null;
  @n('Conversions (ga4 key events)') conversions!: number | null;
  @n('Revenue in the property currency') revenue!: number | null;
  @n('Search impressions (search_console)') impressions!: number | null;
  @n('Search clicks (search_console)') clicks!: number | null;
  @n('Sessions whose source is an AI assistant (chatgpt.com, perplexity.ai, claude.ai, gemini.google.com, copilot.microsoft.com, …)') aiSessions!: number | null;
}
export class MetricPage extends PageOf(MetricRowDto) {}

export const METRICS_TABLE: RowTable = {
  table: 'channel_metrics_daily',
  fields: { sessions: 'sessions', users: 'users', newUsers: 'new_users', pageviews: 'pageviews', conversions: 'conversions', revenue: 'revenue', impressions: 'impressions', clicks: 'clicks', aiSessions: 'ai_sessions' },
  numeric: ['sessions', 'users', 'newUsers', 'pageviews', 'conversions', 'revenue', 'impressions', 'clicks', 'aiSessions'],
  tiebreak: '',
};
export const METRIC_SORTS = sortFields({ date: 'day', sessions: 'sessions', users: 'users', conversions: 'conversions', revenue: 'revenue', clicks: 'clicks', impressions: 'impressions', aiSessions: 'ai_sessions' });

export class ListMetricsQuery extends ChannelRowsQuery {
  @SortBy(METRIC_SORTS, 'date')
  sort?: string;
}

@ApiTags('Channels')
@Controller('api/v1/metrics')
export class ListMetricsController {
  constructor(private readonly rows: ChannelRows) {}

  @Get()
  @RequireScope('read:metrics')
  @ApiOperation({ operationId: 'metrics_list', summary: 'Daily metric rows of the connected channels: sessions, users, conversions, revenue, impressions, clicks, AI sessions; newest first by default' })
  @ApiOkResponse({ type: MetricPage, example: examplePage(METRIC_EXAMPLE) })
  @ApiNotFoundResponse({ description: 'No client or brand the caller may see has this id' })
  async list(@CurrentPrincipal() p: Principal, @Query() q: ListMetricsQuery): Promise<MetricPage> {
    return this.rows.list<MetricRowDto>(p, q, METRICS_TABLE, METRIC_SORTS);
  }
}
