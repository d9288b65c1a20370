import { SortBy, sortFields } from '@libs/http';
import { ChannelRowsQuery } from '../channel-rows.query';

export const SORTS = sortFields({ date: 'day', page: 'page', sessions: 'sessions', clicks: 'clicks', impressions: 'impressions', position: 'position', revenue: 'revenue' });

export class ListContentQuery extends ChannelRowsQuery {
  @SortBy(SORTS, 'date')
  sort?: string;
}
