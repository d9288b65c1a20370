import { OptionalIdQuery, PaginationQuery } from '@libs/http';

export class ListAnalysisRunsQuery extends PaginationQuery {
  @OptionalIdQuery('brandId', 'Only the runs of this brand')
  brandId?: number;
}
