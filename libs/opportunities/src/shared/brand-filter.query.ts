import { OptionalIdQuery } from '../../../http/src';

/** The optional `brandId` filter of the opportunity and outcome reads. */
export class BrandFilterQuery {
  @OptionalIdQuery('brandId', 'Only this brand')
  brandId?: number;
}
