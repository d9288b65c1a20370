import { Body, Controller, Param, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ParseIdPipe } from '@libs/http';
import { BrandAccess } from '@libs/tenancy';
import { PROVIDERS } from '../domain';
import { storedOrConflict } from '../prompt-conflict';
import { PromptResponse } from '../prompt.dto';
import { TrackedPromptsRepository } from '../tracked-prompts.repository';
import { AddBrandPromptRequest } from './add-brand-prompt.request.dto';
import { ADDED_PROMPT_EXAMPLE } from './add-brand-prompt.example';

@ApiTags('Brands')
@Controller('api/v1/brands')
export class AddBrandPromptController {
  constructor(
    private readonly brands: BrandAccess,
    private readonly prompts: TrackedPromptsRepository,
  ) {}

  @Post(':id/prompts')
  @RequireScope('write:brands')
  @ApiOperation({ operationId: 'brands_prompts_create', summary: 'Track a prompt for the brand: asked on its schedule by every provider it lists' })
  @ApiCreatedResponse({ type: PromptResponse, example: ADDED_PROMPT_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  @ApiConflictResponse({ description: 'The brand already tracks the same query (case and white space aside), or already has 500 active prompts' })
  async add(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number, @Body() body: AddBrandPromptRequest): Promise<PromptResponse> {
    const brand = await this.brands.resolve(p, id);
    const result = await this.prompts.add(brand, {
      query: body.query,
      topic: body.topic ?? null,
      tags: body.tags ?? [],
      providers: body.providers ?? [...PROVIDERS],
      country: body.country ?? null,
      language: body.language ?? null,
      isActive: body.isActive ?? true,
    });
    return { data: storedOrConflict(result) };
  }
}
