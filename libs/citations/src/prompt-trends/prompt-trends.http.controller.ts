import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandPeriodQuery } from '@libs/http';
import { dailyRateSeries, dailySeries } from '@libs/metrics';
import { promptRef, promptSumsSql, type PromptSumsRow } from '../read-model/prompt-reads';
import { Reads } from '../read-model/reads';
import { CitationsScope } from '../shared/citations-scope';
import { groupBy } from '../shared/owners';
import { PROMPT_TRENDS_EXAMPLE } from './prompt-trends.example';
import { PromptTrendsResponse } from './prompt-trends.response.dto';

@ApiTags('Prompts')
@Controller('api/v1/prompts')
export class PromptTrendsController {
  constructor(
    private readonly scopes: CitationsScope,
    private readonly reads: Reads,
  ) {}

  @Get('trends')
  @RequireScope('read:prompts')
  @ApiOperation({ operationId: 'prompts_trends', summary: "Daily series per prompt: the brand's mention rate, average position and gap rate (UTC days; `days`, default 30, or a period)" })
  @ApiOkResponse({ type: PromptTrendsResponse, example: PROMPT_TRENDS_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  async trends(@CurrentPrincipal() p: Principal, @Query() q: BrandPeriodQuery): Promise<PromptTrendsResponse> {
    const scope = await this.scopes.period(p, q);
    const { start, end } = scope.filter;
    const [rows] = await Promise.all([this.reads.rows<PromptSumsRow>(promptSumsSql(scope.filter, true)), this.scopes.named(scope, p)]);
    const prompts = [...groupBy(rows, (r) => r.query)].sort(([a], [b]) => a.localeCompare(b));
    return {
      data: {
        brand: CitationsScope.entity(scope, scope.brandEntityId),
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
}
