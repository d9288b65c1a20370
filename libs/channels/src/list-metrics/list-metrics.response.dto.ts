import { PageOf } from '@libs/http';
import { DailyRowDto, Figure as n } from '../daily-row.dto';

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
