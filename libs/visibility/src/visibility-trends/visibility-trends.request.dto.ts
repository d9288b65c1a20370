import { BrandPeriodQuery, DaysParam } from '@libs/http';

/** The last `days` days (default 30, at most 365) of a brand, with the answer filters. */
export class VisibilityTrendsQuery extends BrandPeriodQuery {
  @DaysParam('days', { description: 'The last N days up to today (UTC), default 30' })
  declare days?: number;
}
