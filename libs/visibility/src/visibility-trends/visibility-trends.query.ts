import { Injectable } from '@nestjs/common';
import { AnswerScope, type AnswerScopeOf } from '@libs/analysis';
import { PROVIDERS } from '@libs/http';
import { dailyRateSeries, dailySeries, type SeriesPoint } from '@libs/metrics';
import type { TenantScope } from '@libs/tenancy';
import { sharesOfVoice, type EntitySums, type RollupCounter } from '../domain/entity-sums';
import { sumsOf } from '../read-model/group-sums';
import { RollupReads, type RollupRow } from '../read-model/rollup-reads';
import type { VisibilityTrendsQuery } from './visibility-trends.request.dto';
import type { EntityShareSeriesDto, TrendSeriesDto, VisibilityTrendsResponse } from './visibility-trends.response.dto';

/** The counters the trends are computed from (whole counters: the provider rollups serve them). */
export const VISIBILITY_TRENDS_COUNTERS = ['answers', 'mentioned', 'mentions', 'ranked', 'rankSum'] as const satisfies readonly RollupCounter[];
const COUNTERS = VISIBILITY_TRENDS_COUNTERS;
type Row = RollupRow<(typeof COUNTERS)[number]>;
type Sums = Pick<EntitySums, (typeof COUNTERS)[number]>;
type ByDay = Map<string, Map<string, Sums>>;

/** Adds a row into its day's sums of its entity (the trends' five counters, summed as groupSums would, in one pass for all providers). */
function addTo(byDay: ByDay, row: Row): void {
  let byEntity = byDay.get(row.day!);
  if (!byEntity) byDay.set(row.day!, (byEntity = new Map()));
  const s = byEntity.get(row.entityId);
  if (!s) byEntity.set(row.entityId, { answers: row.answers, mentioned: row.mentioned, mentions: row.mentions, ranked: row.ranked, rankSum: row.rankSum });
  else {
    s.answers += row.answers;
    s.mentioned += row.mentioned;
    s.mentions += row.mentions;
    s.ranked += row.ranked;
    s.rankSum += row.rankSum;
  }
}

/** The three daily series of one set of rows (all providers, or one), grouped by day. */
function series(scope: AnswerScopeOf, byDay: ByDay): TrendSeriesDto {
  const brandOf = (day: Map<string, Sums>) => sumsOf(day, scope.brandEntityId);
  const { start, end } = scope.filter;
  const mention = new Map([...byDay].map(([day, e]) => [day, { k: brandOf(e).mentioned, n: brandOf(e).answers }]));
  const sov: SeriesPoint[] = dailySeries(start, end, byDay, (e) => {
    const { shares, totalMentions } = sharesOfVoice(e);
    return { value: shares.get(scope.brandEntityId) ?? null, n: totalMentions };
  });
  return {
    mentionRate: dailyRateSeries(start, end, mention),
    shareOfVoice: sov,
    averagePosition: dailySeries(start, end, byDay, (e) => ({ value: brandOf(e).ranked ? brandOf(e).rankSum / brandOf(e).ranked : null, n: brandOf(e).ranked })),
  };
}

/**
 * Share of voice of every tracked entity (the brand, then its competitors) by day, over all the
 * rows given: each day's mentions of the entity / mentions of all tracked entities, with n (those
 * mentions) and the 95 % Wilson interval of that proportion. The interval counts mentions as
 * independent draws; mentions in one answer are not, so it is a lower bound on the uncertainty.
 */
function entitySeries(scope: AnswerScopeOf, byDay: ByDay): EntityShareSeriesDto[] {
  const { start, end } = scope.filter;
  const totals = new Map([...byDay].map(([day, e]) => [day, sharesOfVoice(e).totalMentions]));
  return [...scope.entities.keys()].map((id) => ({
    entity: AnswerScope.entity(scope, id),
    shareOfVoice: dailyRateSeries(start, end, new Map([...byDay].map(([day, e]) => [day, { k: sumsOf(e, id).mentions, n: totals.get(day) ?? 0 }]))),
  }));
}

/** Daily mention rate, share of voice and average position of a brand, overall and per provider, and every tracked entity's daily share of voice (`GET /api/v1/visibility/trends`). */
@Injectable()
export class VisibilityTrends {
  constructor(
    private readonly scopes: AnswerScope,
    private readonly rollups: RollupReads,
  ) {}

  async read(p: TenantScope, q: VisibilityTrendsQuery): Promise<VisibilityTrendsResponse> {
    const scope = await this.scopes.period(p, q);
    // The names beside the sums: one round trip, not two.
    const [rows] = await Promise.all([this.rollups.sums(scope.filter, ['day', 'provider'], COUNTERS), this.scopes.named(scope, p)]);
    const providers = PROVIDERS.filter((pr) => scope.filter.provider === undefined || pr === scope.filter.provider);
    const overall: ByDay = new Map();
    const byProvider = new Map<string, ByDay>(providers.map((provider) => [provider, new Map()]));
    for (const row of rows) {
      addTo(overall, row);
      const ofProvider = byProvider.get(row.provider!);
      if (ofProvider) addTo(ofProvider, row);
    }
    return {
      data: {
        brand: AnswerScope.entity(scope, scope.brandEntityId),
        startDate: scope.filter.start,
        endDate: scope.filter.end,
        overall: series(scope, overall),
        shareOfVoiceByEntity: entitySeries(scope, overall),
        providers: providers.map((provider) => ({ provider, ...series(scope, byProvider.get(provider)!) })),
      },
    };
  }
}
