import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandPeriodQuery } from '@libs/http';
import { SENTIMENT_TRENDS_EXAMPLE } from './sentiment-trends.example';
import { SentimentTrends } from './sentiment-trends.query';
import { SentimentTrendsResponse } from './sentiment-trends.response.dto';

@ApiTags('Sentiment')
@Controller('api/v1/sentiment')
export class SentimentTrendsController {
  constructor(private readonly sentiment: SentimentTrends) {}

  @Get('trends')
  @RequireScope('read:sentiment')
  @ApiOperation({ operationId: 'sentiment_trends', summary: "Daily net sentiment and positive/negative shares of the brand (UTC days; a day without labelled answers has n: 0 and nulls)" })
  @ApiOkResponse({ type: SentimentTrendsResponse, example: SENTIMENT_TRENDS_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  trends(@CurrentPrincipal() p: Principal, @Query() q: BrandPeriodQuery): Promise<SentimentTrendsResponse> {
    return this.sentiment.read(p, q);
  }
}
