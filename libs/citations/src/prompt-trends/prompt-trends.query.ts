import { Injectable } from '@nestjs/common';
import { AnswerScope, type AnswerFilter, type EntityRef } from '@libs/analysis';
import { type Principal } from '@libs/auth';
import { BrandPeriodQuery } from '@libs/http';
import { dailyRateSeries, dailySeries } from '@libs/metrics';
import { promptRef, promptSumsSql, type PromptSumsRow } from '../read-model/prompt-reads';
import { Reads } from '../read-model/reads';
import { groupBy } from '../shared/owners';
import { PromptTrendsResponse } from './prompt-trends.response.dto';

/** The read behind `GET /api/v1/prompts/trends`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class PromptTrends {
  constructor(
    private readonly scopes: AnswerScope,
    private readonly reads: Reads,
  ) {}

  async read(p: Principal, q: BrandPeriodQuery): Promise<PromptTrendsResponse> {
    const scope = await this.scopes.period(p, q);
    const [rows] = await Promise.all([this.reads.rows<PromptSumsRow>(promptSumsSql(scope.filter, true)), this.scopes.named(scope, p)]);
    return promptTrendsResponse(scope.filter, AnswerScope.entity(scope, scope.brandEntityId), rows);
  }
}

/** The response from the statement's rows (`promptSumsSql(filter, true)`; the benchmark's bare server builds its JSON with it too). */
export function promptTrendsResponse(filter: Pick<AnswerFilter, 'start' | 'end'>, brand: EntityRef, rows: readonly PromptSumsRow[]): PromptTrendsResponse {
  const { start, end } = filter;
  const prompts = [...groupBy(rows, (r) => r.query)].sort(([a], [b]) => a.localeCompare(b));
  return {
    data: {
      brand,
      startDate: start,
      endDate: end,
      prompts: prompts.map(([, days]) => {
        const byDay = new Map(days.map((d) => [d.day!, d]));
        const promptId = days.reduce<string | null>((id, d) => (d.prompt_id !== null && (id === null || Number(d.prompt_id) > Number(id)) ? d.prompt_id : id), null);
        return {
          prompt: promptRef({ query: days[0].query, prompt_id: promptId }),
          mentionRate: dailyRateSeries(start, end, new Map(days.map((d) => [d.day!, { k: d.mentioned, n: d.answers }]))),
          averagePosition: dailySeries(start, end, byDay, (d) => ({ value: d.ranked ? d.rank_sum / d.ranked : null, n: d.ranked })),
          gapRate: dailyRateSeries(start, end, new Map(days.map((d) => [d.day!, { k: d.gaps, n: d.answers }]))),
        };
      }),
    },
  };
}
