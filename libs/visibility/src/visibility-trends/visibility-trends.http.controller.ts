import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { PROVIDERS } from '@libs/http';
import { dailyRateSeries, dailySeries, type SeriesPoint } from '@libs/metrics';
import { sharesOfVoice, type EntitySums } from '../domain/entity-sums';
import { groupSums, sumsOf } from '../read-model/group-sums';
import { RollupReads, type RollupRow } from '../read-model/rollup-reads';
import { VisibilityScope, type ResolvedScope } from '../visibility-scope';
import { VisibilityTrendsQuery } from './visibility-trends.request.dto';
import { VisibilityTrendsResponse, type EntityShareSeriesDto, type TrendSeriesDto } from './visibility-trends.response.dto';
import { VISIBILITY_TRENDS_EXAMPLE } from './visibility-trends.example';

/** The three daily series of one set of rows (all providers, or one). */
function series(scope: ResolvedScope, rows: readonly RollupRow[]): TrendSeriesDto {
  const byDay = groupSums(rows, (r) => r.day!);
  const brandOf = (day: Map<string, EntitySums>) => sumsOf(day, scope.brandEntityId);
  const { start, end } = scope.period;
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
function entitySeries(scope: ResolvedScope, rows: readonly RollupRow[]): EntityShareSeriesDto[] {
  const byDay = groupSums(rows, (r) => r.day!);
  const { start, end } = scope.period;
  const totals = new Map([...byDay].map(([day, e]) => [day, sharesOfVoice(e).totalMentions]));
  return [...scope.entities.keys()].map((id) => ({
    entity: VisibilityScope.entity(scope, id),
    shareOfVoice: dailyRateSeries(start, end, new Map([...byDay].map(([day, e]) => [day, { k: sumsOf(e, id).mentions, n: totals.get(day) ?? 0 }]))),
  }));
}

@ApiTags('Visibility')
@Controller('api/v1/visibility')
export class VisibilityTrendsController {
  constructor(
    private readonly scopes: VisibilityScope,
    private readonly rollups: RollupReads,
  ) {}

  @Get('trends')
  @RequireScope('read:visibility')
  @ApiOperation({ operationId: 'visibility_trends', summary: "Daily mention rate, share of voice and average position of the brand, overall and per provider, and every tracked entity's daily share of voice (UTC days; a day without answers has n: 0 and nulls)" })
  @ApiOkResponse({ type: VisibilityTrendsResponse, example: VISIBILITY_TRENDS_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  async trends(@CurrentPrincipal() p: Principal, @Query() q: VisibilityTrendsQuery): Promise<VisibilityTrendsResponse> {
    const scope = await this.scopes.resolve(p, q);
    const rows = await this.rollups.sums(scope.filter, ['day', 'provider']);
    const providers = PROVIDERS.filter((pr) => scope.filter.provider === undefined || pr === scope.filter.provider);
    return {
      data: {
        brand: VisibilityScope.entity(scope, scope.brandEntityId),
        startDate: scope.period.start,
        endDate: scope.period.end,
        overall: series(scope, rows),
        shareOfVoiceByEntity: entitySeries(scope, rows),
        providers: providers.map((provider) => ({ provider, ...series(scope, rows.filter((r) => r.provider === provider)) })),
      },
    };
  }
}
