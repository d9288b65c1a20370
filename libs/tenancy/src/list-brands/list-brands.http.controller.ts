import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { TenancyRepository } from '../tenancy.repository';
import { BrandsQuery } from './list-brands.request.dto';
import { BrandListResponse } from './list-brands.response.dto';

@ApiTags('Brands')
@Controller('api/v1/brands')
export class ListBrandsController {
  constructor(private readonly tenancy: TenancyRepository) {}

  @Get()
  @RequireScope('read:brands')
  @ApiOperation({ operationId: 'brands_list', summary: "The organisation's brands (a client-bound credential sees its client's only)" })
  @ApiOkResponse({ type: BrandListResponse })
  async list(@CurrentPrincipal() p: Principal, @Query() q: BrandsQuery): Promise<BrandListResponse> {
    return { data: await this.tenancy.listBrands(p, q.clientId) };
  }
}
