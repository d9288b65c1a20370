import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { VISIBILITY_TRENDS_EXAMPLE } from './visibility-trends.example';
import { VisibilityTrends } from './visibility-trends.query';
import { VisibilityTrendsQuery } from './visibility-trends.request.dto';
import { VisibilityTrendsResponse } from './visibility-trends.response.dto';

@ApiTags('Visibility')
@Controller('api/v1/visibility')
export class VisibilityTrendsController {
  constructor(private readonly visibility: VisibilityTrends) {}

  @Get('trends')
  @RequireScope('read:visibility')
  @ApiOperation({ operationId: 'visibility_trends', summary: "Daily mention rate, share of voice and average position of the brand, overall and per provider, and every tracked entity's daily share of voice (UTC days; a day without answers has n: 0 and nulls)" })
  @ApiOkResponse({ type: VisibilityTrendsResponse, example: VISIBILITY_TRENDS_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  trends(@CurrentPrincipal() p: Principal, @Query() q: VisibilityTrendsQuery): Promise<VisibilityTrendsResponse> {
    return this.visibility.read(p, q);
  }
}
