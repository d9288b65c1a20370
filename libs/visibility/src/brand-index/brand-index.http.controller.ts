import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandQuery } from '@libs/http';
import { BRAND_INDEX_EXAMPLE } from './brand-index.example';
import { BrandIndex } from './brand-index.query';
import { BrandIndexResponse } from './brand-index.response.dto';

@ApiTags('Visibility')
@Controller('api/v1/brand-index')
export class BrandIndexController {
  constructor(private readonly index: BrandIndex) {}

  @Get('latest')
  @RequireScope('read:visibility')
  @ApiOperation({
    operationId: 'brand_index_latest',
    summary: 'The brand index (0-100) over the 30 days up to the newest day with answers, with each component (DESIGN §14)',
    description: 'Mention rate 30 %, share of voice 25 %, net sentiment 15 % (mapped to 0-100), citation rate 20 %, visibility share 10 %; a component without data is left out and the others scaled up. An organisation may set its own weights (CLI `brand-index weights`).',
  })
  @ApiOkResponse({ type: BrandIndexResponse, example: BRAND_INDEX_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  latest(@CurrentPrincipal() p: Principal, @Query() q: BrandQuery): Promise<BrandIndexResponse> {
    return this.index.read(p, q);
  }
}
