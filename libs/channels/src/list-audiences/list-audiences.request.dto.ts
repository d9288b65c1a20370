import { SortBy, sortFields } from '@libs/http';
import { ChannelRowsQuery } from '../channel-rows.query';

export const SORTS = sortFields({ date: 'day', audience: 'audience', sessions: 'sessions', users: 'users', conversions: 'conversions', revenue: 'revenue' });

export class ListAudienceQuery extends ChannelRowsQuery {
  @SortBy(SORTS, 'date')
  sort?: string;
}
