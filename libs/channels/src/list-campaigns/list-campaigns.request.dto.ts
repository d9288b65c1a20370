import { SortBy, sortFields } from '@libs/http';
import { ChannelRowsQuery } from '../channel-rows.query';

export const SORTS = sortFields({ date: 'day', campaign: 'campaign', sessions: 'sessions', conversions: 'conversions', revenue: 'revenue' });

export class ListCampaignQuery extends ChannelRowsQuery {
  @SortBy(SORTS, 'date')
  sort?: string;
}
