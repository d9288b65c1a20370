import { Body, Controller, Param, Patch } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ApiError, ParseIdPipe } from '@libs/http';
import { BrandAccess } from '@libs/tenancy';
import { storedOrConflict } from '../prompt-conflict';
import { PromptResponse } from '../prompt.dto';
import { TrackedPromptsRepository } from '../tracked-prompts.repository';
import { UpdateBrandPromptRequest } from './update-brand-prompt.request.dto';
import { UPDATED_PROMPT_EXAMPLE } from './update-brand-prompt.example';

@ApiTags('Brands')
@Controller('api/v1/brands')
export class UpdateBrandPromptController {
  constructor(
    private readonly brands: BrandAccess,
    private readonly prompts: TrackedPromptsRepository,
  ) {}

  @Patch(':id/prompts/:promptId')
  @RequireScope('write:brands')
  @ApiOperation({ operationId: 'brands_prompts_update', summary: "Change a tracked prompt's query, topic, tags, providers, market or active state" })
  @ApiOkResponse({ type: PromptResponse, example: UPDATED_PROMPT_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id, or the brand has no such prompt' })
  @ApiConflictResponse({ description: 'The brand already tracks the new query, or re-activating would exceed 500 active prompts' })
  async update(
    @CurrentPrincipal() p: Principal,
    @Param('id', ParseIdPipe) id: number,
    @Param('promptId', ParseIdPipe) promptId: number,
    @Body() body: UpdateBrandPromptRequest,
  ): Promise<PromptResponse> {
    const brand = await this.brands.resolve(p, id);
    const result = await this.prompts.update(brand, promptId, { query: body.query, topic: body.topic, tags: body.tags, providers: body.providers, country: body.country, language: body.language, isActive: body.isActive });
    if (result === null) throw ApiError.notFound(`Prompt ${promptId}`);
    return { data: storedOrConflict(result) };
  }
}
