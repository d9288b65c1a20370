import { BrandQuery, DaysParam } from '@libs/http';

export class GeoRecommendationsQuery extends BrandQuery {
  @DaysParam('days', { fallback: 30, description: 'Answer findings look at the answers of the last N days (UTC)' })
  days?: number;
}
