import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandPeriodQuery } from '@libs/http';
import { dailyRateSeries, eachDay } from '@libs/metrics';
import { Reads } from '../read-model/reads';
import { CitationsScope } from '../shared/citations-scope';
import { CITATION_TRENDS_EXAMPLE } from './citation-trends.example';
import { CitationTrendsResponse } from './citation-trends.response.dto';
import { citationOwnersSql, citationRateSql } from './citation-trends.sql';

@ApiTags('Citations')
@Controller('api/v1/citations')
export class CitationTrendsController {
  constructor(
    private readonly scopes: CitationsScope,
    private readonly reads: Reads,
  ) {}

  @Get('trends')
  @RequireScope('read:citations')
  @ApiOperation({ operationId: 'citations_trends', summary: 'Daily citation rate of the brand and citation counts by owner (brand, competitor, other), UTC days; `days` (default 30) or a period' })
  @ApiOkResponse({ type: CitationTrendsResponse, example: CITATION_TRENDS_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  async trends(@CurrentPrincipal() p: Principal, @Query() q: BrandPeriodQuery): Promise<CitationTrendsResponse> {
    const scope = await this.scopes.period(p, q);
    const [rates, owners] = await Promise.all([
      this.reads.rows<{ day: string; answers: number; with_citations: number; brand_cited: number }>(citationRateSql(scope.filter)),
      this.reads.rows<{ day: string; owner: string; citations: number }>(citationOwnersSql(scope.filter)),
      this.scopes.named(scope, p),
    ]);
    const { start, end } = scope.filter;
    const byDay = new Map(rates.map((r) => [r.day, r]));
    const counts = new Map<string, Record<string, number>>();
    for (const o of owners) counts.set(o.day, { ...counts.get(o.day), [o.owner]: o.citations });
    return {
      data: {
        brand: CitationsScope.entity(scope, scope.brandEntityId),
        startDate: start,
        endDate: end,
        citationRate: dailyRateSeries(start, end, new Map(rates.map((r) => [r.day, { k: r.brand_cited, n: r.with_citations }]))),
        counts: eachDay(start, end).map((date) => {
          const answers = byDay.get(date)?.answers ?? 0;
          const c = counts.get(date) ?? {};
          const of = (owner: string) => (answers ? (c[owner] ?? 0) : null);
          return { date, answers, brand: of('brand'), competitor: of('competitor'), other: of('other'), total: answers ? (c.brand ?? 0) + (c.competitor ?? 0) + (c.other ?? 0) : null };
        }),
      },
    };
  }
}
