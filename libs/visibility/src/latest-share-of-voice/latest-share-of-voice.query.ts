import { Injectable } from '@nestjs/common';
import { AnswerScope } from '@libs/analysis';
import { PROVIDERS, type BrandMarketQuery } from '@libs/http';
import type { TenantScope } from '@libs/tenancy';
import { groupSums, sumsOf } from '../read-model/group-sums';
import { RollupReads } from '../read-model/rollup-reads';
import { sovEntries } from '../read-model/sov-entries';
import type { LatestSovResponse } from './latest-share-of-voice.response.dto';

/** Share of voice per provider on the day of the brand's most recent complete run (`GET /api/v1/visibility/sov/latest`). */
@Injectable()
export class LatestShareOfVoice {
  constructor(
    private readonly scopes: AnswerScope,
    private readonly rollups: RollupReads,
  ) {}

  async read(p: TenantScope, q: BrandMarketQuery): Promise<LatestSovResponse> {
    const scope = await this.scopes.period(p, q);
    const sums = async () => {
      const date = await this.rollups.latestCompleteRunDay(scope.filter);
      return { date, rows: date === null ? [] : await this.rollups.sums({ ...scope.filter, start: date, end: date }, ['provider']) };
    };
    const [{ date, rows }] = await Promise.all([sums(), this.scopes.named(scope, p)]);
    if (date === null) return { data: { date: null, providers: [] } };
    const byProvider = groupSums(rows, (r) => r.provider!);
    return {
      data: {
        date,
        providers: PROVIDERS.filter((pr) => byProvider.has(pr)).map((provider) => ({ provider, answers: sumsOf(byProvider.get(provider), scope.brandEntityId).answers, entries: sovEntries(scope, provider, byProvider.get(provider)!) })),
      },
    };
  }
}
