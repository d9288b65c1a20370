import { OptionalIdQuery, PaginationQuery, SortBy, sortFields } from '@libs/http';

/** Runs sort by creation (ids grow with it), or by when they completed (unfinished runs last). */
export const RUN_SORTS = sortFields({ createdAt: 'id', id: 'id', completedAt: 'completed_at' });

export class ListAnalysisRunsQuery extends PaginationQuery {
  @OptionalIdQuery('brandId', 'Only the runs of this brand')
  brandId?: number;

  @SortBy(RUN_SORTS, 'createdAt')
  sort?: string;
}
