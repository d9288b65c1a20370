import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiError } from '@libs/http';
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
  @ApiNotFoundResponse({ description: "clientId names no client the caller may see" })
  async list(@CurrentPrincipal() p: Principal, @Query() q: BrandsQuery): Promise<BrandListResponse> {
    if (q.clientId !== undefined && !(await this.tenancy.canSeeClient(p, q.clientId))) throw ApiError.notFound(`Client ${q.clientId}`);
    return { data: await this.tenancy.listBrands(p, q.clientId) };
  }
}
