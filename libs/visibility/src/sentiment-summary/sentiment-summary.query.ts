import { Injectable } from '@nestjs/common';
import { AnswerScope } from '@libs/analysis';
import type { BrandPeriodQuery } from '@libs/http';
import type { TenantScope } from '@libs/tenancy';
import { PeriodFigures } from '../read-model/period-figures';
import { sentimentFigures } from '../read-model/sentiment.dto';
import type { SentimentByProviderResponse, SentimentSummaryResponse } from './sentiment-summary.response.dto';

/** A brand's sentiment over a period: label counts, net sentiment, mean score (`GET /api/v1/sentiment/summary`). */
@Injectable()
export class SentimentSummary {
  constructor(private readonly figures: PeriodFigures) {}

  async read(p: TenantScope, q: BrandPeriodQuery): Promise<SentimentSummaryResponse> {
    const { scope, figures: f } = await this.figures.of(p, q);
    return { data: { brand: AnswerScope.entity(scope, scope.brandEntityId), startDate: scope.filter.start, endDate: scope.filter.end, ...sentimentFigures(f.overall) } };
  }
}

/** A brand's sentiment per provider asked in the period (`GET /api/v1/sentiment/by-provider`). */
@Injectable()
export class SentimentByProvider {
  constructor(private readonly figures: PeriodFigures) {}

  async read(p: TenantScope, q: BrandPeriodQuery): Promise<SentimentByProviderResponse> {
    const { figures: f } = await this.figures.of(p, q);
    return { data: f.providers.map((x) => ({ provider: x.provider, ...sentimentFigures(x) })) };
  }
}
