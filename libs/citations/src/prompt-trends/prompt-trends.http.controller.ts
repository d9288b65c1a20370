import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandPeriodQuery } from '@libs/http';
import { PROMPT_TRENDS_EXAMPLE } from './prompt-trends.example';
import { PromptTrendsResponse } from './prompt-trends.response.dto';
import { PromptTrends } from './prompt-trends.query';

@ApiTags('Prompts')
@Controller('api/v1/prompts')
export class PromptTrendsController {
  constructor(private readonly promptTrends: PromptTrends) {}

  @Get('trends')
  @RequireScope('read:prompts')
  @ApiOperation({ operationId: 'prompts_trends', summary: "Daily series per prompt: the brand's mention rate, average position and gap rate (UTC days; `days`, default 30, or a period)" })
  @ApiOkResponse({ type: PromptTrendsResponse, example: PROMPT_TRENDS_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  trends(@CurrentPrincipal() p: Principal, @Query() q: BrandPeriodQuery): Promise<PromptTrendsResponse> {
    return this.promptTrends.read(p, q);
  }
}
