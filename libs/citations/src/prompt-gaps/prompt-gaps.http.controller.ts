import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandPeriodLimitQuery } from '../shared/list-limit.query';
import { PROMPT_GAPS_EXAMPLE } from './prompt-gaps.example';
import { PromptGapsResponse } from './prompt-gaps.response.dto';
import { PromptGaps } from './prompt-gaps.query';

@ApiTags('Prompts')
@Controller('api/v1/prompts')
export class PromptGapsController {
  constructor(private readonly promptGaps: PromptGaps) {}

  @Get('gaps')
  @RequireScope('read:prompts')
  @ApiOperation({
    operationId: 'prompts_gaps',
    summary: 'Prompts whose answers mention a competitor and not the brand (default the last 30 days): the rates, the competitors, and the domains those answers cite',
  })
  @ApiOkResponse({ type: PromptGapsResponse, example: PROMPT_GAPS_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  gaps(@CurrentPrincipal() p: Principal, @Query() q: BrandPeriodLimitQuery): Promise<PromptGapsResponse> {
    return this.promptGaps.read(p, q);
  }
}
