import { Controller, Get, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ParseIdPipe } from '@libs/http';
import { BrandAccess } from '@libs/tenancy';
import { BrandFactsRepository } from '../brand-facts.repository';
import { BrandFactsResponse } from '../brand-facts.dto';
import { BRAND_FACTS_EXAMPLE } from './get-brand-facts.example';

@ApiTags('Brands')
@Controller('api/v1/brands')
export class GetBrandFactsController {
  constructor(
    private readonly brands: BrandAccess,
    private readonly facts: BrandFactsRepository,
  ) {}

  @Get(':id/facts')
  @RequireScope('read:brands')
  @ApiOperation({ operationId: 'brands_facts_get', summary: "The brand's registered facts (answers are checked against them: AEO accuracy)" })
  @ApiOkResponse({ type: BrandFactsResponse, example: BRAND_FACTS_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  async get(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number): Promise<BrandFactsResponse> {
    const brand = await this.brands.resolve(p, id);
    return { data: { brandId: brand.id, ...(await this.facts.of(brand)) } };
  }
}
