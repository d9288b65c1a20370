import { PaginationQuery, SortBy, sortFields } from '@libs/http';

/** Subscriptions sort by creation (their ids grow with it). */
export const WEBHOOK_SORTS = sortFields({ createdAt: 'id', id: 'id' });

export class ListWebhooksQuery extends PaginationQuery {
  @SortBy(WEBHOOK_SORTS, 'createdAt')
  sort?: string;
}
