import { Body, Controller, Param, Put } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ParseIdPipe } from '@libs/http';
import { BrandAccess } from '@libs/tenancy';
import { BrandFactsRepository } from '../brand-facts.repository';
import { BrandFactsDto, BrandFactsResponse } from '../brand-facts.dto';
import { PUT_BRAND_FACTS_EXAMPLE } from './put-brand-facts.example';

@ApiTags('Brands')
@Controller('api/v1/brands')
export class PutBrandFactsController {
  constructor(
    private readonly brands: BrandAccess,
    private readonly facts: BrandFactsRepository,
  ) {}

  @Put(':id/facts')
  @RequireScope('write:brands')
  @ApiOperation({
    operationId: 'brands_facts_put',
    summary: "Replace the brand's registered facts",
    description: 'Answers analysed from now on are checked against them (`answers reanalyze` re-checks history): founding year, starting price and headquarters are checkable; product names are kept for reference.',
  })
  @ApiOkResponse({ type: BrandFactsResponse, example: PUT_BRAND_FACTS_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  async put(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number, @Body() body: BrandFactsDto): Promise<BrandFactsResponse> {
    const brand = await this.brands.resolve(p, id);
    const stored = await this.facts.put(brand, {
      foundedYear: body.foundedYear ?? null,
      startingPrice: body.startingPrice ? { amount: body.startingPrice.amount, currency: body.startingPrice.currency } : null,
      headquarters: body.headquarters?.trim() || null,
      productNames: [...new Set((body.productNames ?? []).map((n) => n.trim()))],
    });
    return { data: { brandId: brand.id, ...stored } };
  }
}
