import { Injectable } from '@nestjs/common';
import { AnswerScope } from '@libs/analysis';
import type { BrandMarketQuery } from '@libs/http';
import { addDays, brandIndex, netSentimentOn100, utcDay } from '@libs/metrics';
import type { TenantScope } from '@libs/tenancy';
import { BrandIndexWeightsRepository } from '../brand-index-weights.repository';
import { brandFigures } from '../read-model/brand-figures';
import { RollupReads } from '../read-model/rollup-reads';
import { labelledBy } from '../read-model/sentiment.dto';
import type { BrandIndexResponse } from './brand-index.response.dto';

/** The index is over the 30 days up to the newest day with answers. */
export const BRAND_INDEX_DAYS = 30;
const pct = (v: number | null) => (v === null ? null : v * 100);

/** The brand index (0-100) over the 30 days up to the newest day with answers, with each component (`GET /api/v1/brand-index/latest`). */
@Injectable()
export class BrandIndex {
  constructor(
    private readonly scopes: AnswerScope,
    private readonly rollups: RollupReads,
    private readonly weights: BrandIndexWeightsRepository,
  ) {}

  async read(p: TenantScope, q: BrandMarketQuery): Promise<BrandIndexResponse> {
    const scope = await this.scopes.period(p, q);
    // The names and the weights beside the newest day and its sums.
    const figures = async () => {
      const date = await this.rollups.latestDay(scope.filter);
      const end = date ?? utcDay(Date.now());
      const start = addDays(end, -(BRAND_INDEX_DAYS - 1));
      return { date, start, end, rows: await this.rollups.sums({ ...scope.filter, start, end }, ['provider']) };
    };
    const [{ date, start, end, rows }, weights] = await Promise.all([figures(), this.weights.of(scope.brand.organizationId), this.scopes.named(scope, p)]);
    const f = brandFigures(scope, rows).overall;
    const index = brandIndex(
      {
        mentionRate: { value: pct(f.mentionRate.value), n: f.mentionRate.n },
        shareOfVoice: { value: pct(f.shareOfVoice.value), n: f.shareOfVoice.n },
        netSentiment: { value: netSentimentOn100(f.sentiment.net.value), n: f.sentiment.net.n },
        citationRate: { value: pct(f.citationRate.value), n: f.citationRate.n },
        visibilityShare: { value: pct(f.visibilityShare.value), n: f.visibilityShare.n },
      },
      weights.weights,
    );
    const labelled = f.sentiment.positive + f.sentiment.neutral + f.sentiment.negative;
    const components = index.components.map((c) => (c.name === 'netSentiment' ? { ...c, labelledBy: labelledBy(f.sentiment, labelled) } : c));
    return { data: { brand: AnswerScope.entity(scope, scope.brandEntityId), date, startDate: start, endDate: end, value: index.value, components } };
  }
}
