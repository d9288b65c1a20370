import { SortBy, sortFields } from '@libs/http';
import { ChannelRowsQuery } from '../channel-rows.query';

export const METRIC_SORTS = sortFields({ date: 'day', sessions: 'sessions', users: 'users', conversions: 'conversions', revenue: 'revenue', clicks: 'clicks', impressions: 'impressions', aiSessions: 'ai_sessions' });

export class ListMetricsQuery extends ChannelRowsQuery {
  @SortBy(METRIC_SORTS, 'date')
  sort?: string;
}
