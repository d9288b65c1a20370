import { OptionalIdQuery } from '@libs/http';

/** The optional `brandId` filter of the opportunity and outcome reads. */
export class BrandFilterQuery {
  @OptionalIdQuery('brandId', 'Only this brand')
  brandId?: number;
}
