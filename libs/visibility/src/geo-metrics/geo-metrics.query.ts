import { Injectable } from '@nestjs/common';
import { AnswerScope } from '@libs/analysis';
import type { BrandPeriodQuery } from '@libs/http';
import type { TenantScope } from '@libs/tenancy';
import type { BrandFigures } from '../read-model/brand-figures';
import { PeriodFigures } from '../read-model/period-figures';
import type { GeoFiguresDto, GeoMetricsResponse } from './geo-metrics.response.dto';

const geo = (f: BrandFigures): GeoFiguresDto => ({ visibilityShare: f.visibilityShare, citationRate: f.citationRate, citationShare: f.citationShare });

/** Generative-engine figures of a brand over a period, overall and per provider (`GET /api/v1/geo/metrics`). */
@Injectable()
export class GeoMetrics {
  constructor(private readonly figures: PeriodFigures) {}

  async read(p: TenantScope, q: BrandPeriodQuery): Promise<GeoMetricsResponse> {
    const { scope, figures: f } = await this.figures.of(p, q);
    return { data: { brand: AnswerScope.entity(scope, scope.brandEntityId), startDate: scope.filter.start, endDate: scope.filter.end, overall: geo(f.overall), providers: f.providers.map((x) => ({ provider: x.provider, ...geo(x) })) } };
  }
}
