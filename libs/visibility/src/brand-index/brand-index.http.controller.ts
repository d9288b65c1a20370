import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandQuery } from '@libs/http';
import { addDays, brandIndex, netSentimentOn100, utcDay } from '@libs/metrics';
import { BrandIndexWeightsRepository } from '../brand-index-weights.repository';
import { brandFigures } from '../read-model/brand-figures';
import { EntityDto } from '../read-model/figure.dto';
import { LabelledByDto, labelledBy } from '../read-model/sentiment.dto';
import { RollupReads } from '../read-model/rollup-reads';
import { VisibilityScope } from '../visibility-scope';
import { BRAND_INDEX_EXAMPLE } from './brand-index.example';

/** The index is over the 30 days up to the newest day with answers. */
export const BRAND_INDEX_DAYS = 30;
const pct = (v: number | null) => (v === null ? null : v * 100);

export class BrandIndexComponentDto {
  @ApiProperty({ enum: ['mentionRate', 'shareOfVoice', 'netSentiment', 'citationRate', 'visibilityShare'] }) name!: string;
  @ApiProperty({ type: 'number', nullable: true, minimum: 0, maximum: 100, description: 'The component on 0-100; null without data' }) value!: number | null;
  @ApiProperty({ description: 'Configured weight (percent)' }) weight!: number;
  @ApiProperty({ description: 'Weight it carried after components without data were left out (percent; they add to 100)' }) effectiveWeight!: number;
  @ApiProperty({ type: 'number', nullable: true, description: 'Points it added to the index' }) contribution!: number | null;
  @ApiProperty({ type: 'integer' }) n!: number;
  @ApiProperty({ type: LabelledByDto, required: false, description: 'netSentiment only: how many of its labelled answers each labeller decided' }) labelledBy?: LabelledByDto;
}
export class BrandIndexDto {
  @ApiProperty({ type: EntityDto }) brand!: EntityDto;
  @ApiProperty({ type: String, format: 'date', nullable: true, description: 'The newest UTC day with answers (null: none yet)' }) date!: string | null;
  @ApiProperty({ type: 'string', format: 'date' }) startDate!: string;
  @ApiProperty({ type: 'string', format: 'date' }) endDate!: string;
  @ApiProperty({ type: 'number', nullable: true, minimum: 0, maximum: 100, description: 'null when no component has data' }) value!: number | null;
  @ApiProperty({ type: [BrandIndexComponentDto] }) components!: BrandIndexComponentDto[];
}
export class BrandIndexResponse {
  @ApiProperty({ type: BrandIndexDto }) data!: BrandIndexDto;
}

@ApiTags('Visibility')
@Controller('api/v1/brand-index')
export class BrandIndexController {
  constructor(
    private readonly scopes: VisibilityScope,
    private readonly rollups: RollupReads,
    private readonly weights: BrandIndexWeightsRepository,
  ) {}

  @Get('latest')
  @RequireScope('read:visibility')
  @ApiOperation({
    operationId: 'brand_index_latest',
    summary: 'The brand index (0-100) over the 30 days up to the newest day with answers, with each component (DESIGN §14)',
    description: 'Mention rate 30 %, share of voice 25 %, net sentiment 15 % (mapped to 0-100), citation rate 20 %, visibility share 10 %; a component without data is left out and the others scaled up. An organisation may set its own weights (CLI `brand-index weights`).',
  })
  @ApiOkResponse({ type: BrandIndexResponse, example: BRAND_INDEX_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  async latest(@CurrentPrincipal() p: Principal, @Query() q: BrandQuery): Promise<BrandIndexResponse> {
    const scope = await this.scopes.resolve(p, q);
    const date = await this.rollups.latestDay(scope.brand.organizationId, scope.brand.id);
    const end = date ?? utcDay(Date.now());
    const start = addDays(end, -(BRAND_INDEX_DAYS - 1));
    const f = brandFigures(scope, await this.rollups.sums({ ...scope.filter, start, end }, ['provider'])).overall;
    const index = brandIndex(
      {
        mentionRate: { value: pct(f.mentionRate.value), n: f.mentionRate.n },
        shareOfVoice: { value: pct(f.shareOfVoice.value), n: f.shareOfVoice.n },
        netSentiment: { value: netSentimentOn100(f.sentiment.net.value), n: f.sentiment.net.n },
        citationRate: { value: pct(f.citationRate.value), n: f.citationRate.n },
        visibilityShare: { value: pct(f.visibilityShare.value), n: f.visibilityShare.n },
      },
      (await this.weights.of(scope.brand.organizationId)).weights,
    );
    const labelled = f.sentiment.positive + f.sentiment.neutral + f.sentiment.negative;
    const components = index.components.map((c) => (c.name === 'netSentiment' ? { ...c, labelledBy: labelledBy(f.sentiment, labelled) } : c));
    return { data: { brand: VisibilityScope.entity(scope, scope.brandEntityId), date, startDate: start, endDate: end, value: index.value, components } };
  }
}
