import { Injectable } from '@nestjs/common';
import { AnswerScope, type AnswerFilter, type EntityRef } from '@libs/analysis';
import { type Principal } from '@libs/auth';
import { BrandPeriodQuery } from '@libs/http';
import { dailyRateSeries, eachDay } from '@libs/metrics';
import { Reads } from '../read-model/reads';
import { CitationTrendsResponse } from './citation-trends.response.dto';
import { citationDailySql, citationOwnersSql, citationRateSql, dailyRollupAnswers, type CitationDayRow, type CitationOwnersRow, type CitationRateRow } from './citation-trends.sql';

/** The read behind `GET /api/v1/citations/trends`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class CitationTrends {
  constructor(
    private readonly scopes: AnswerScope,
    private readonly reads: Reads,
  ) {}

  async read(p: Principal, q: BrandPeriodQuery): Promise<CitationTrendsResponse> {
    const scope = await this.scopes.period(p, q);
    const [days] = await Promise.all([this.days(scope.filter), this.scopes.named(scope, p)]);
    return citationTrendsResponse(scope.filter, AnswerScope.entity(scope, scope.brandEntityId), days);
  }

  /** The days' counts: from the daily rollup (a few rows a day), or over the answers when the filter names prompts (the rollup has none). */
  private async days(f: AnswerFilter): Promise<CitationDayRow[]> {
    if (dailyRollupAnswers(f)) return this.reads.rows<CitationDayRow>(citationDailySql(f));
    const [rates, owners] = await Promise.all([this.reads.rows<CitationRateRow>(citationRateSql(f)), this.reads.rows<CitationOwnersRow>(citationOwnersSql(f))]);
    return citationDays(rates, owners);
  }
}

/** The answers' per-day rows (`citationRateSql`, `citationOwnersSql`) as the rollup's (an owner without citations that day: 0). */
export function citationDays(rates: readonly CitationRateRow[], owners: readonly CitationOwnersRow[]): CitationDayRow[] {
  const counts = new Map<string, Record<string, number>>();
  for (const o of owners) counts.set(o.day, { ...counts.get(o.day), [o.owner]: o.citations });
  return rates.map((r) => {
    const c = counts.get(r.day) ?? {};
    return { ...r, brand: c.brand ?? 0, competitor: c.competitor ?? 0, other: c.other ?? 0 };
  });
}

/** The response from the days' rows (the benchmark's bare server builds its JSON with it too). */
export function citationTrendsResponse(filter: Pick<AnswerFilter, 'start' | 'end'>, brand: EntityRef, days: readonly CitationDayRow[]): CitationTrendsResponse {
  const { start, end } = filter;
  const byDay = new Map(days.map((r) => [r.day, r]));
  return {
    data: {
      brand,
      startDate: start,
      endDate: end,
      citationRate: dailyRateSeries(start, end, new Map(days.map((r) => [r.day, { k: r.brand_cited, n: r.with_citations }]))),
      counts: eachDay(start, end).map((date) => {
        const d = byDay.get(date);
        const answers = d?.answers ?? 0;
        if (!d || !answers) return { date, answers, brand: null, competitor: null, other: null, total: null };
        return { date, answers, brand: d.brand, competitor: d.competitor, other: d.other, total: d.brand + d.competitor + d.other };
      }),
    },
  };
}
