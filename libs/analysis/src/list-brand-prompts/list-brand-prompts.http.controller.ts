import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { page, ParseIdPipe, sortColumn } from '@libs/http';
import { BrandAccess } from '@libs/tenancy';
import { TrackedPromptsRepository } from '../tracked-prompts.repository';
import { ListBrandPromptsQuery, PROMPT_SORTS } from './list-brand-prompts.request.dto';
import { PromptListResponse } from './list-brand-prompts.response.dto';
import { PROMPTS_EXAMPLE } from './list-brand-prompts.example';

@ApiTags('Brands')
@Controller('api/v1/brands')
export class ListBrandPromptsController {
  constructor(
    private readonly brands: BrandAccess,
    private readonly prompts: TrackedPromptsRepository,
  ) {}

  @Get(':id/prompts')
  @RequireScope('read:brands')
  @ApiOperation({ operationId: 'brands_prompts_list', summary: "The brand's tracked prompts (paginated)", description: 'sort: createdAt (default), id, query or updatedAt; order: desc (default) or asc; active filters by state.' })
  @ApiOkResponse({ type: PromptListResponse, example: PROMPTS_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  async list(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number, @Query() q: ListBrandPromptsQuery): Promise<PromptListResponse> {
    const brand = await this.brands.resolve(p, id);
    const { rows, total } = await this.prompts.list(brand, { active: q.active, limit: q.limit, offset: q.offset, sortColumn: sortColumn(q.sort, PROMPT_SORTS, 'createdAt'), order: q.order });
    return page(rows, total, q);
  }
}
