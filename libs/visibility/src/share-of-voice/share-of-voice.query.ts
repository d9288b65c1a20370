import { Injectable } from '@nestjs/common';
import { AnswerScope } from '@libs/analysis';
import { page, type BrandPeriodPageQuery } from '@libs/http';
import type { TenantScope } from '@libs/tenancy';
import type { RollupCounter } from '../domain/entity-sums';
import { groupSums, sumsOf } from '../read-model/group-sums';
import { RollupReads } from '../read-model/rollup-reads';
import { sovEntries } from '../read-model/sov-entries';
import type { SovPage } from './share-of-voice.response.dto';

/** The counters a share-of-voice entry is computed from (grouped by query: the fine rollups). */
export const SOV_COUNTERS = ['answers', 'mentioned', 'mentions'] as const satisfies readonly RollupCounter[];

/** Share of voice by provider and query over a period, a page at a time (`GET /api/v1/visibility/sov`). */
@Injectable()
export class ShareOfVoice {
  constructor(
    private readonly scopes: AnswerScope,
    private readonly rollups: RollupReads,
  ) {}

  async read(p: TenantScope, q: BrandPeriodPageQuery): Promise<SovPage> {
    const scope = await this.scopes.period(p, q);
    const [rows] = await Promise.all([this.rollups.sums(scope.filter, ['provider', 'query'], SOV_COUNTERS), this.scopes.named(scope, p)]);
    const groups = [...groupSums(rows, (r) => JSON.stringify([r.provider, r.query]), SOV_COUNTERS)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const items = groups.slice(q.offset, q.offset + q.limit).map(([key, byEntity]) => {
      const [provider, query] = JSON.parse(key) as [string, string];
      return { provider, query, brand: AnswerScope.entity(scope, scope.brandEntityId), answers: sumsOf(byEntity, scope.brandEntityId).answers, entries: sovEntries(scope, provider, byEntity) };
    });
    return page(items, groups.length, q);
  }
}
