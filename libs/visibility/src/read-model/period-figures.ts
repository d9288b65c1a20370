import { Injectable } from '@nestjs/common';
import { AnswerScope } from '@libs/analysis';
import type { BrandPeriodQuery } from '@libs/http';
import type { TenantScope } from '@libs/tenancy';
import { brandFigures } from './brand-figures';
import { RollupReads } from './rollup-reads';

/** A brand's figures over a query's period, overall and per provider, with the scope they were read in (the AEO, GEO and sentiment reads). */
@Injectable()
export class PeriodFigures {
  constructor(
    private readonly scopes: AnswerScope,
    private readonly rollups: RollupReads,
  ) {}

  async of(p: TenantScope, q: BrandPeriodQuery) {
    const scope = await this.scopes.period(p, q);
    const [rows] = await Promise.all([this.rollups.sums(scope.filter, ['provider']), this.scopes.named(scope, p)]);
    return { scope, figures: brandFigures(scope, rows) };
  }
}
