import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ParseIdPipe } from '@libs/http';
import { BrandAccess } from '../brand-access';
import { TenancyRepository } from '../tenancy.repository';
import { CompetitorListResponse } from './list-brand-competitors.response.dto';

@ApiTags('Brands')
@Controller('api/v1/brands')
export class ListBrandCompetitorsController {
  constructor(
    private readonly brands: BrandAccess,
    private readonly tenancy: TenancyRepository,
  ) {}

  @Get(':id/competitors')
  @RequireScope('read:brands')
  @ApiOperation({ operationId: 'brands_competitors', summary: "A brand's competitor brands" })
  @ApiOkResponse({ type: CompetitorListResponse })
  async competitors(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number): Promise<CompetitorListResponse> {
    const brand = await this.brands.resolve(p, id);
    return { data: await this.tenancy.competitorsOfBrand(brand) };
  }
}
