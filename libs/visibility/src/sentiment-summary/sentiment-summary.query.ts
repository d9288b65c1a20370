import { Injectable } from '@nestjs/common';
import { AnswerScope } from '@libs/analysis';
import type { BrandPeriodQuery } from '@libs/http';
import type { TenantScope } from '@libs/tenancy';
import { brandFigures } from '../read-model/brand-figures';
import { RollupReads } from '../read-model/rollup-reads';
import { sentimentFigures } from '../read-model/sentiment.dto';
import type { SentimentByProviderResponse, SentimentSummaryResponse } from './sentiment-summary.response.dto';

/** A brand's sentiment over a period: label counts, net sentiment, mean score (`GET /api/v1/sentiment/summary`). */
@Injectable()
export class SentimentSummary {
  constructor(
    private readonly scopes: AnswerScope,
    private readonly rollups: RollupReads,
  ) {}

  async read(p: TenantScope, q: BrandPeriodQuery): Promise<SentimentSummaryResponse> {
    const scope = await this.scopes.named(await this.scopes.period(p, q), p);
    const f = brandFigures(scope, await this.rollups.sums(scope.filter, ['provider']));
    return { data: { brand: AnswerScope.entity(scope, scope.brandEntityId), startDate: scope.filter.start, endDate: scope.filter.end, ...sentimentFigures(f.overall) } };
  }
}

/** A brand's sentiment per provider asked in the period (`GET /api/v1/sentiment/by-provider`). */
@Injectable()
export class SentimentByProvider {
  constructor(
    private readonly scopes: AnswerScope,
    private readonly rollups: RollupReads,
  ) {}

  async read(p: TenantScope, q: BrandPeriodQuery): Promise<SentimentByProviderResponse> {
    const scope = await this.scopes.named(await this.scopes.period(p, q), p);
    const f = brandFigures(scope, await this.rollups.sums(scope.filter, ['provider']));
    return { data: f.providers.map((x) => ({ provider: x.provider, ...sentimentFigures(x) })) };
  }
}
