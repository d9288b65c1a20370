import { Injectable } from '@nestjs/common';
import { AnswerScope } from '@libs/analysis';
import type { BrandPeriodQuery } from '@libs/http';
import type { TenantScope } from '@libs/tenancy';
import { brandFigures, type BrandFigures } from '../read-model/brand-figures';
import { RollupReads } from '../read-model/rollup-reads';
import type { AeoFiguresDto, AeoMetricsResponse } from './aeo-metrics.response.dto';

const aeo = (f: BrandFigures): AeoFiguresDto => ({ mentionRate: f.mentionRate, averagePosition: f.averagePosition, top3Rate: f.top3Rate, accuracy: f.accuracy });

/** Answer-engine figures of a brand over a period, overall and per provider (`GET /api/v1/aeo/metrics`). */
@Injectable()
export class AeoMetrics {
  constructor(
    private readonly scopes: AnswerScope,
    private readonly rollups: RollupReads,
  ) {}

  async read(p: TenantScope, q: BrandPeriodQuery): Promise<AeoMetricsResponse> {
    const scope = await this.scopes.named(await this.scopes.period(p, q), p);
    const f = brandFigures(scope, await this.rollups.sums(scope.filter, ['provider']));
    return { data: { brand: AnswerScope.entity(scope, scope.brandEntityId), startDate: scope.filter.start, endDate: scope.filter.end, overall: aeo(f.overall), providers: f.providers.map((x) => ({ provider: x.provider, ...aeo(x) })) } };
  }
}
