import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { PROMPT_INSIGHTS_EXAMPLE } from './prompt-insights.example';
import { PromptInsightsQuery } from './prompt-insights.request.dto';
import { PromptInsightPage } from './prompt-insights.response.dto';
import { PromptInsights } from './prompt-insights.query';

@ApiTags('Prompts')
@Controller('api/v1/prompts')
export class PromptInsightsController {
  constructor(private readonly promptInsights: PromptInsights) {}

  @Get('insights')
  @RequireScope('read:prompts')
  @ApiOperation({ operationId: 'prompts_insights', summary: "Per prompt over the period: the brand's mention rate, average position and sentiment, the leading competitor and the domains cited" })
  @ApiOkResponse({ type: PromptInsightPage, example: PROMPT_INSIGHTS_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  insights(@CurrentPrincipal() p: Principal, @Query() q: PromptInsightsQuery): Promise<PromptInsightPage> {
    return this.promptInsights.read(p, q);
  }
}
