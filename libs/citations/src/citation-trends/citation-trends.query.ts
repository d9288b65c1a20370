import { Injectable } from '@nestjs/common';
import { AnswerScope } from '@libs/analysis';
import { type Principal } from '@libs/auth';
import { BrandPeriodQuery } from '@libs/http';
import { dailyRateSeries, eachDay } from '@libs/metrics';
import { Reads } from '../read-model/reads';
import { CitationTrendsResponse } from './citation-trends.response.dto';
import { citationOwnersSql, citationRateSql } from './citation-trends.sql';

/** The read behind `GET /api/v1/citations/trends`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class CitationTrends {
  constructor(
    private readonly scopes: AnswerScope,
    private readonly reads: Reads,
  ) {}

  async read(p: Principal, q: BrandPeriodQuery): Promise<CitationTrendsResponse> {
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
        brand: AnswerScope.entity(scope, scope.brandEntityId),
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
