import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandPeriodQuery } from '@libs/http';
import { dailyRateSeries, dailySeries, netSentiment } from '@libs/metrics';
import { EntityDto, SeriesPointDto } from '../read-model/figure.dto';
import { LabelledByDto, labelledBy } from '../read-model/sentiment.dto';
import { groupSums, sumsOf } from '../read-model/group-sums';
import { RollupReads } from '../read-model/rollup-reads';
import { VisibilityScope } from '../visibility-scope';
import { SENTIMENT_TRENDS_EXAMPLE } from './sentiment-trends.example';

export class SentimentTrendsDto {
  @ApiProperty({ type: EntityDto }) brand!: EntityDto;
  @ApiProperty({ type: 'string', format: 'date' }) startDate!: string;
  @ApiProperty({ type: 'string', format: 'date' }) endDate!: string;
  @ApiProperty({ type: [SeriesPointDto], description: 'Daily net sentiment in [-100, 100] (n: labelled answers)' }) netSentiment!: SeriesPointDto[];
  @ApiProperty({ type: [SeriesPointDto], description: 'Daily share of labelled answers that are positive, with the 95 % Wilson interval' }) positiveRate!: SeriesPointDto[];
  @ApiProperty({ type: [SeriesPointDto], description: 'Daily share of labelled answers that are negative, with the 95 % Wilson interval' }) negativeRate!: SeriesPointDto[];
  @ApiProperty({ type: LabelledByDto, description: "How many of the period's labelled answers each labeller decided" }) labelledBy!: LabelledByDto;
}
export class SentimentTrendsResponse {
  @ApiProperty({ type: SentimentTrendsDto }) data!: SentimentTrendsDto;
}

@ApiTags('Sentiment')
@Controller('api/v1/sentiment')
export class SentimentTrendsController {
  constructor(
    private readonly scopes: VisibilityScope,
    private readonly rollups: RollupReads,
  ) {}

  @Get('trends')
  @RequireScope('read:sentiment')
  @ApiOperation({ operationId: 'sentiment_trends', summary: "Daily net sentiment and positive/negative shares of the brand (UTC days; a day without labelled answers has n: 0 and nulls)" })
  @ApiOkResponse({ type: SentimentTrendsResponse, example: SENTIMENT_TRENDS_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  async trends(@CurrentPrincipal() p: Principal, @Query() q: BrandPeriodQuery): Promise<SentimentTrendsResponse> {
    const scope = await this.scopes.resolve(p, q);
    const byDay = groupSums(await this.rollups.sums(scope.filter, ['day']), (r) => r.day!);
    const { start, end } = scope.period;
    const brand = (day: string) => sumsOf(byDay.get(day), scope.brandEntityId);
    const labelled = (day: string) => brand(day).positive + brand(day).neutral + brand(day).negative;
    return {
      data: {
        brand: VisibilityScope.entity(scope, scope.brandEntityId),
        startDate: start,
        endDate: end,
        netSentiment: dailySeries(start, end, byDay, (e) => netSentiment(sumsOf(e, scope.brandEntityId))),
        positiveRate: dailyRateSeries(start, end, new Map([...byDay.keys()].map((d) => [d, { k: brand(d).positive, n: labelled(d) }]))),
        negativeRate: dailyRateSeries(start, end, new Map([...byDay.keys()].map((d) => [d, { k: brand(d).negative, n: labelled(d) }]))),
        labelledBy: labelledBy(
          { judged: [...byDay.keys()].reduce((t, d) => t + brand(d).judged, 0), judgeFallbacks: [...byDay.keys()].reduce((t, d) => t + brand(d).judgeFallbacks, 0) },
          [...byDay.keys()].reduce((t, d) => t + labelled(d), 0),
        ),
      },
    };
  }
}
