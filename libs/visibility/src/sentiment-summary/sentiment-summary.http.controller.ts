import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandPeriodQuery } from '@libs/http';
import { SENTIMENT_SUMMARY_EXAMPLE, SENTIMENT_BY_PROVIDER_EXAMPLE } from './sentiment-summary.example';
import { SentimentByProvider, SentimentSummary } from './sentiment-summary.query';
import { SentimentByProviderResponse, SentimentSummaryResponse } from './sentiment-summary.response.dto';

@ApiTags('Sentiment')
@Controller('api/v1/sentiment')
export class SentimentSummaryController {
  constructor(
    private readonly sentiment: SentimentSummary,
    private readonly sentimentByProvider: SentimentByProvider,
  ) {}

  @Get('summary')
  @RequireScope('read:sentiment')
  @ApiOperation({ operationId: 'sentiment_summary', summary: "The brand's sentiment over the period: label counts, net sentiment, mean score" })
  @ApiOkResponse({ type: SentimentSummaryResponse, example: SENTIMENT_SUMMARY_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  summary(@CurrentPrincipal() p: Principal, @Query() q: BrandPeriodQuery): Promise<SentimentSummaryResponse> {
    return this.sentiment.read(p, q);
  }

  @Get('by-provider')
  @RequireScope('read:sentiment')
  @ApiOperation({ operationId: 'sentiment_by_provider', summary: "The brand's sentiment per provider over the period (providers asked in it)" })
  @ApiOkResponse({ type: SentimentByProviderResponse, example: SENTIMENT_BY_PROVIDER_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  byProvider(@CurrentPrincipal() p: Principal, @Query() q: BrandPeriodQuery): Promise<SentimentByProviderResponse> {
    return this.sentimentByProvider.read(p, q);
  }
}
