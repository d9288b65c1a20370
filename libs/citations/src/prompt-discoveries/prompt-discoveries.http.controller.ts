import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandPeriodLimitQuery } from '../shared/list-limit.query';
import { PROMPT_DISCOVERIES_EXAMPLE } from './prompt-discoveries.example';
import { PromptDiscoveriesResponse } from './prompt-discoveries.response.dto';
import { PromptDiscoveries } from './prompt-discoveries.query';

@ApiTags('Prompts')
@Controller('api/v1/prompts')
export class PromptDiscoveriesController {
  constructor(private readonly promptDiscoveries: PromptDiscoveries) {}

  @Get('discoveries')
  @RequireScope('read:prompts')
  @ApiOperation({
    operationId: 'prompts_discoveries',
    summary:
      "Candidate prompts to track, found in the brand's answers over the last `days` (default 30): follow-up questions the engines suggest and questions in the answers' text, and the brand's Search Console queries (impressions as their occurrences, clicks beside them), not already tracked (compared without case and punctuation), each with where it was found and how often",
  })
  @ApiOkResponse({ type: PromptDiscoveriesResponse, example: PROMPT_DISCOVERIES_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  discoveries(@CurrentPrincipal() p: Principal, @Query() q: BrandPeriodLimitQuery): Promise<PromptDiscoveriesResponse> {
    return this.promptDiscoveries.read(p, q);
  }
}
