import { BrandPeriodQuery, PageLimit } from '@libs/http';

/** A brand-period read answering an array: at most `limit` items (1-200, default 50). */
export class BrandPeriodLimitQuery extends BrandPeriodQuery {
  @PageLimit()
  limit: number = 50;
}
