import { Injectable } from '@nestjs/common';
import { AnswerScope } from '@libs/analysis';
import type { BrandPeriodQuery } from '@libs/http';
import { dailyRateSeries, dailySeries, netSentiment } from '@libs/metrics';
import type { TenantScope } from '@libs/tenancy';
import type { RollupCounter } from '../domain/entity-sums';
import { groupSums, sumsOf } from '../read-model/group-sums';
import { RollupReads } from '../read-model/rollup-reads';
import { labelledBy } from '../read-model/sentiment.dto';
import type { SentimentTrendsResponse } from './sentiment-trends.response.dto';

/** The counters the sentiment trends are computed from (whole counters: the provider rollups serve them). */
const COUNTERS = ['positive', 'neutral', 'negative', 'judged', 'judgeFallbacks'] as const satisfies readonly RollupCounter[];

/** Daily net sentiment and positive/negative shares of a brand (`GET /api/v1/sentiment/trends`). */
@Injectable()
export class SentimentTrends {
  constructor(
    private readonly scopes: AnswerScope,
    private readonly rollups: RollupReads,
  ) {}

  async read(p: TenantScope, q: BrandPeriodQuery): Promise<SentimentTrendsResponse> {
    const scope = await this.scopes.period(p, q);
    const [rows] = await Promise.all([this.rollups.sums(scope.filter, ['day'], COUNTERS), this.scopes.named(scope, p)]);
    const byDay = groupSums(rows, (r) => r.day!, COUNTERS);
    const { start, end } = scope.filter;
    const brand = (day: string) => sumsOf(byDay.get(day), scope.brandEntityId);
    const labelled = (day: string) => brand(day).positive + brand(day).neutral + brand(day).negative;
    return {
      data: {
        brand: AnswerScope.entity(scope, scope.brandEntityId),
        startDate: start,
        endDate: end,
        netSentiment: dailySeries(start, end, byDay, (e) => netSentiment(sumsOf(e, scope.brandEntityId))),
        positiveRate: dailyRateSeries(start, end, new Map([...byDay.keys()].map((d) => [d, { k: brand(d).positive, n: labelled(d) }]))),
        negativeRate: dailyRateSeries(start, end, new Map([...byDay.keys()].map((d) => [d, { k: brand(d).negative, n: labelled(d) }]))),
        labelledBy: labelledBy(
          { judged: [...byDay.keys()].reduce((t, d) => t + brand(d).judged, 0), judgeFallbacks: [...byDay.keys()].reduce((t, d) => t + brand(d).judgeFallbacks, 0) },
          [...byDay.keys()].reduce((t, d) => t + labelled(d), 0),
        ),
      },
    };
  }
}
