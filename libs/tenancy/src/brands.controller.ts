import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ApiError, OptionalIdQuery, ParseIdPipe } from '@libs/http';
import { TenancyRepository, type Brand, type Competitor } from './tenancy.repository';

class BrandsQuery {
  @OptionalIdQuery('clientId', 'Only the brands of this client')
  clientId?: number;
}

class BrandDto {
  @ApiProperty() id!: number;
  @ApiProperty() organizationId!: number;
  @ApiProperty({ type: Number, nullable: true }) clientId!: number | null;
  @ApiProperty() name!: string;
  @ApiProperty({ example: 'acme.com' }) domain!: string;
  @ApiProperty({ type: [String] }) aliases!: string[];
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

class CompetitorDto {
  @ApiProperty() id!: number;
  @ApiProperty() brandId!: number;
  @ApiProperty() name!: string;
  @ApiProperty() domain!: string;
  @ApiProperty({ type: [String] }) aliases!: string[];
}

class BrandListResponse {
  @ApiProperty({ type: [BrandDto] }) data!: Brand[];
}
class BrandResponse {
  @ApiProperty({ type: BrandDto }) data!: Brand;
}
class CompetitorListResponse {
  @ApiProperty({ type: [CompetitorDto] }) data!: Competitor[];
}

@ApiTags('Brands')
@Controller('api/v1/brands')
export class BrandsController {
  constructor(private readonly tenancy: TenancyRepository) {}

  @Get()
  @RequireScope('read:brands')
  @ApiOperation({ summary: "The organisation's brands (a client-bound credential sees its client's only)" })
  @ApiOkResponse({ type: BrandListResponse })
  async list(@CurrentPrincipal() p: Principal, @Query() q: BrandsQuery): Promise<BrandListResponse> {
    return { data: await this.tenancy.listBrands(p, q.clientId) };
  }

  @Get(':id')
  @RequireScope('read:brands')
  @ApiOperation({ summary: 'One brand' })
  @ApiOkResponse({ type: BrandResponse })
  async get(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number): Promise<BrandResponse> {
    const brand = await this.tenancy.findBrand(p, id);
    if (!brand) throw ApiError.notFound(`Brand ${id}`);
    return { data: brand };
  }

  @Get(':id/competitors')
  @RequireScope('read:brands')
  @ApiOperation({ summary: "A brand's competitor brands" })
  @ApiOkResponse({ type: CompetitorListResponse })
  async competitors(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number): Promise<CompetitorListResponse> {
    const competitors = await this.tenancy.competitorsOf(p, id);
    if (!competitors) throw ApiError.notFound(`Brand ${id}`);
    return { data: competitors };
  }
}
