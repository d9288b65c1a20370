import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandPeriodQuery, PROVIDERS } from '@libs/http';
import { brandFigures } from '../read-model/brand-figures';
import { EntityDto } from '../read-model/figure.dto';
import { RollupReads } from '../read-model/rollup-reads';
import { SentimentFiguresDto, sentimentFigures } from '../read-model/sentiment.dto';
import { VisibilityScope } from '../visibility-scope';
import { SENTIMENT_SUMMARY_EXAMPLE, SENTIMENT_BY_PROVIDER_EXAMPLE } from './sentiment-summary.example';

export class SentimentSummaryDto extends SentimentFiguresDto {
  @ApiProperty({ type: EntityDto }) brand!: EntityDto;
  @ApiProperty({ type: 'string', format: 'date' }) startDate!: string;
  @ApiProperty({ type: 'string', format: 'date' }) endDate!: string;
}
export class SentimentSummaryResponse {
  @ApiProperty({ type: SentimentSummaryDto }) data!: SentimentSummaryDto;
}
export class ProviderSentimentDto extends SentimentFiguresDto {
  @ApiProperty({ enum: PROVIDERS }) provider!: string;
}
export class SentimentByProviderResponse {
  @ApiProperty({ type: [ProviderSentimentDto] }) data!: ProviderSentimentDto[];
}

@ApiTags('Sentiment')
@Controller('api/v1/sentiment')
export class SentimentSummaryController {
  constructor(
    private readonly scopes: VisibilityScope,
    private readonly rollups: RollupReads,
  ) {}

  @Get('summary')
  @RequireScope('read:sentiment')
  @ApiOperation({ operationId: 'sentiment_summary', summary: "The brand's sentiment over the period: label counts, net sentiment, mean score" })
  @ApiOkResponse({ type: SentimentSummaryResponse, example: SENTIMENT_SUMMARY_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  async summary(@CurrentPrincipal() p: Principal, @Query() q: BrandPeriodQuery): Promise<SentimentSummaryResponse> {
    const scope = await this.scopes.resolve(p, q);
    const f = brandFigures(scope, await this.rollups.sums(scope.filter, ['provider']));
    return { data: { brand: VisibilityScope.entity(scope, scope.brandEntityId), startDate: scope.period.start, endDate: scope.period.end, ...sentimentFigures(f.overall) } };
  }

  @Get('by-provider')
  @RequireScope('read:sentiment')
  @ApiOperation({ operationId: 'sentiment_by_provider', summary: "The brand's sentiment per provider over the period (providers asked in it)" })
  @ApiOkResponse({ type: SentimentByProviderResponse, example: SENTIMENT_BY_PROVIDER_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  async byProvider(@CurrentPrincipal() p: Principal, @Query() q: BrandPeriodQuery): Promise<SentimentByProviderResponse> {
    const scope = await this.scopes.resolve(p, q);
    const f = brandFigures(scope, await this.rollups.sums(scope.filter, ['provider']));
    return { data: f.providers.map((x) => ({ provider: x.provider, ...sentimentFigures(x) })) };
  }
}
