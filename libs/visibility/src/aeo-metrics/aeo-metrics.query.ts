import { Injectable } from '@nestjs/common';
import { AnswerScope } from '@libs/analysis';
import type { BrandPeriodQuery } from '@libs/http';
import type { TenantScope } from '@libs/tenancy';
import type { BrandFigures } from '../read-model/brand-figures';
import { PeriodFigures } from '../read-model/period-figures';
import type { AeoFiguresDto, AeoMetricsResponse } from './aeo-metrics.response.dto';

const aeo = (f: BrandFigures): AeoFiguresDto => ({ mentionRate: f.mentionRate, averagePosition: f.averagePosition, top3Rate: f.top3Rate, accuracy: f.accuracy });

/** Answer-engine figures of a brand over a period, overall and per provider (`GET /api/v1/aeo/metrics`). */
@Injectable()
export class AeoMetrics {
  constructor(private readonly figures: PeriodFigures) {}

  async read(p: TenantScope, q: BrandPeriodQuery): Promise<AeoMetricsResponse> {
    const { scope, figures: f } = await this.figures.of(p, q);
    return { data: { brand: AnswerScope.entity(scope, scope.brandEntityId), startDate: scope.filter.start, endDate: scope.filter.end, overall: aeo(f.overall), providers: f.providers.map((x) => ({ provider: x.provider, ...aeo(x) })) } };
  }
}
