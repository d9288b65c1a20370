import { Injectable } from '@nestjs/common';
import { AnswerScope } from '@libs/analysis';
import type { BrandMarketQuery } from '@libs/http';
import { addDays, brandIndex, netSentimentOn100, utcDay, type BrandIndexWeights } from '@libs/metrics';
import type { TenantScope } from '@libs/tenancy';
import { DataSource } from 'typeorm';
import { poolOf, preparedQuery } from '@libs/sql';
import { weightsOf } from '../brand-index-weights.repository';
import { brandFigures } from '../read-model/brand-figures';
import { LATEST_DAY_SQL, RollupReads, latestDayParams } from '../read-model/rollup-reads';
import { labelledBy } from '../read-model/sentiment.dto';
import type { BrandIndexResponse } from './brand-index.response.dto';

/** The index is over the 30 days up to the newest day with answers. */
export const BRAND_INDEX_DAYS = 30;

/**
 * The newest day with answers (RollupReads.latestDay's statement, its parameters) and the
 * organisation's stored weights (BrandIndexWeightsRepository.of's row, null when none are set)
 * in one statement: one round trip fewer on every request.
 */
const LATEST_DAY_AND_WEIGHTS_SQL = `SELECT (${LATEST_DAY_SQL}) AS day,
  (SELECT weights FROM brand_index_weights WHERE organization_id = $1) AS weights`;
const pct = (v: number | null) => (v === null ? null : v * 100);

/** The brand index (0-100) over the 30 days up to the newest day with answers, with each component (`GET /api/v1/brand-index/latest`). */
@Injectable()
export class BrandIndex {
  constructor(
    private readonly dataSource: DataSource,
    private readonly scopes: AnswerScope,
    private readonly rollups: RollupReads,
  ) {}

  async read(p: TenantScope, q: BrandMarketQuery): Promise<BrandIndexResponse> {
    const scope = await this.scopes.period(p, q);
    // The names beside the newest day (with the organisation's weights, one statement) and its sums.
    const figures = async () => {
      const [first] = await preparedQuery<{ day: string | null; weights: BrandIndexWeights | null }>(poolOf(this.dataSource), LATEST_DAY_AND_WEIGHTS_SQL, latestDayParams(scope.filter));
      const date = first.day;
      const end = date ?? utcDay(Date.now());
      const start = addDays(end, -(BRAND_INDEX_DAYS - 1));
      return { date, start, end, weights: weightsOf(first.weights), rows: await this.rollups.sums({ ...scope.filter, start, end }, ['provider']) };
    };
    const [{ date, start, end, weights, rows }] = await Promise.all([figures(), this.scopes.named(scope, p)]);
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
