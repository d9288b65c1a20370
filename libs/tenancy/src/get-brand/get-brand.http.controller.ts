import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ParseIdPipe } from '@libs/http';
import { BrandAccess } from '../brand-access';
import { BrandResponse } from '../brand.dto';

@ApiTags('Brands')
@Controller('api/v1/brands')
export class GetBrandController {
  constructor(private readonly brands: BrandAccess) {}

  @Get(':id')
  @RequireScope('read:brands')
  @ApiOperation({ operationId: 'brands_get', summary: 'One brand' })
  @ApiOkResponse({ type: BrandResponse })
  async get(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number): Promise<BrandResponse> {
    return { data: await this.brands.resolve(p, id) };
  }
}
