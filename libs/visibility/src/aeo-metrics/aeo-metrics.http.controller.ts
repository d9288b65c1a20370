import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandPeriodQuery, PROVIDERS } from '@libs/http';
import { brandFigures, type BrandFigures } from '../read-model/brand-figures';
import { EntityDto, MeanDto, RateDto } from '../read-model/figure.dto';
import { RollupReads } from '../read-model/rollup-reads';
import { VisibilityScope } from '../visibility-scope';
import { AEO_METRICS_EXAMPLE } from './aeo-metrics.example';

export class AeoFiguresDto {
  @ApiProperty({ type: RateDto, description: 'Answers mentioning the brand / answers' }) mentionRate!: RateDto;
  @ApiProperty({ type: MeanDto, description: 'Mean rank where the brand is ranked' }) averagePosition!: MeanDto;
  @ApiProperty({ type: RateDto, description: 'Answers ranking the brand 1-3 / answers mentioning it' }) top3Rate!: RateDto;
  @ApiProperty({ type: RateDto, description: "Answers whose checkable claims agree with the brand's facts / answers with a checkable claim (n: 0 when the brand has no registered facts or no answer makes a claim on them)" }) accuracy!: RateDto;
}
export class ProviderAeoDto extends AeoFiguresDto {
  @ApiProperty({ enum: PROVIDERS }) provider!: string;
}
export class AeoMetricsDto {
  @ApiProperty({ type: EntityDto }) brand!: EntityDto;
  @ApiProperty({ type: 'string', format: 'date' }) startDate!: string;
  @ApiProperty({ type: 'string', format: 'date' }) endDate!: string;
  @ApiProperty({ type: AeoFiguresDto }) overall!: AeoFiguresDto;
  @ApiProperty({ type: [ProviderAeoDto] }) providers!: ProviderAeoDto[];
}
export class AeoMetricsResponse {
  @ApiProperty({ type: AeoMetricsDto }) data!: AeoMetricsDto;
}

const aeo = (f: BrandFigures): AeoFiguresDto => ({ mentionRate: f.mentionRate, averagePosition: f.averagePosition, top3Rate: f.top3Rate, accuracy: f.accuracy });

@ApiTags('AEO')
@Controller('api/v1/aeo')
export class AeoMetricsController {
  constructor(
    private readonly scopes: VisibilityScope,
    private readonly rollups: RollupReads,
  ) {}

  @Get('metrics')
  @RequireScope('read:visibility')
  @ApiOperation({ operationId: 'aeo_metrics', summary: 'Answer-engine figures of the brand over the period: mention rate, average position, top-3 rate, accuracy; overall and per provider' })
  @ApiOkResponse({ type: AeoMetricsResponse, example: AEO_METRICS_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  async metrics(@CurrentPrincipal() p: Principal, @Query() q: BrandPeriodQuery): Promise<AeoMetricsResponse> {
    const scope = await this.scopes.resolve(p, q);
    const f = brandFigures(scope, await this.rollups.sums(scope.filter, ['provider']));
    return { data: { brand: VisibilityScope.entity(scope, scope.brandEntityId), startDate: scope.period.start, endDate: scope.period.end, overall: aeo(f.overall), providers: f.providers.map((x) => ({ provider: x.provider, ...aeo(x) })) } };
  }
}
