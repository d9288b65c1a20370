import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandPeriodQuery } from '@libs/http';
import { CITATION_TRENDS_EXAMPLE } from './citation-trends.example';
import { CitationTrendsResponse } from './citation-trends.response.dto';
import { CitationTrends } from './citation-trends.query';

@ApiTags('Citations')
@Controller('api/v1/citations')
export class CitationTrendsController {
  constructor(private readonly citationTrends: CitationTrends) {}

  @Get('trends')
  @RequireScope('read:citations')
  @ApiOperation({ operationId: 'citations_trends', summary: 'Daily citation rate of the brand and citation counts by owner (brand, competitor, other), UTC days; `days` (default 30) or a period' })
  @ApiOkResponse({ type: CitationTrendsResponse, example: CITATION_TRENDS_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  trends(@CurrentPrincipal() p: Principal, @Query() q: BrandPeriodQuery): Promise<CitationTrendsResponse> {
    return this.citationTrends.read(p, q);
  }
}
