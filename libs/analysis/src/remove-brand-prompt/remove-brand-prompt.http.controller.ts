import { Controller, Delete, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ApiError, ParseIdPipe } from '@libs/http';
import { BrandAccess } from '@libs/tenancy';
import { TrackedPromptsRepository } from '../tracked-prompts.repository';
import { RemovedPromptResponse } from './remove-brand-prompt.response.dto';
import { REMOVED_PROMPT_EXAMPLE } from './remove-brand-prompt.example';

@ApiTags('Brands')
@Controller('api/v1/brands')
export class RemoveBrandPromptController {
  constructor(
    private readonly brands: BrandAccess,
    private readonly prompts: TrackedPromptsRepository,
  ) {}

  @Delete(':id/prompts/:promptId')
  @RequireScope('write:brands')
  @ApiOperation({ operationId: 'brands_prompts_remove', summary: 'Stop tracking a prompt (answers already recorded for it stay)' })
  @ApiOkResponse({ type: RemovedPromptResponse, example: REMOVED_PROMPT_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id, or the brand has no such prompt' })
  async remove(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number, @Param('promptId', ParseIdPipe) promptId: number): Promise<RemovedPromptResponse> {
    const brand = await this.brands.resolve(p, id);
    if (!(await this.prompts.remove(brand, promptId))) throw ApiError.notFound(`Prompt ${promptId}`);
    return { data: { id: promptId, deleted: true } };
  }
}
