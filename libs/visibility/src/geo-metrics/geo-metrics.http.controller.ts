import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandPeriodQuery, PROVIDERS } from '@libs/http';
import { brandFigures, type BrandFigures } from '../read-model/brand-figures';
import { EntityDto, MeanDto, RateDto } from '../read-model/figure.dto';
import { RollupReads } from '../read-model/rollup-reads';
import { VisibilityScope } from '../visibility-scope';
import { GEO_METRICS_EXAMPLE } from './geo-metrics.example';

export class GeoFiguresDto {
  @ApiProperty({ type: MeanDto, description: "The brand's position-adjusted word-count share, averaged over answers (n: answers)" }) visibilityShare!: MeanDto;
  @ApiProperty({ type: RateDto, description: "Answers citing any of the brand's domains / answers with at least one citation" }) citationRate!: RateDto;
  @ApiProperty({ type: MeanDto, description: "Citations of the brand's domains / all citations (n: all citations)" }) citationShare!: MeanDto;
}
export class ProviderGeoDto extends GeoFiguresDto {
  @ApiProperty({ enum: PROVIDERS }) provider!: string;
}
export class GeoMetricsDto {
  @ApiProperty({ type: EntityDto }) brand!: EntityDto;
  @ApiProperty({ type: 'string', format: 'date' }) startDate!: string;
  @ApiProperty({ type: 'string', format: 'date' }) endDate!: string;
  @ApiProperty({ type: GeoFiguresDto }) overall!: GeoFiguresDto;
  @ApiProperty({ type: [ProviderGeoDto] }) providers!: ProviderGeoDto[];
}
export class GeoMetricsResponse {
  @ApiProperty({ type: GeoMetricsDto }) data!: GeoMetricsDto;
}

const geo = (f: BrandFigures): GeoFiguresDto => ({ visibilityShare: f.visibilityShare, citationRate: f.citationRate, citationShare: f.citationShare });

@ApiTags('GEO')
@Controller('api/v1/geo')
export class GeoMetricsController {
  constructor(
    private readonly scopes: VisibilityScope,
    private readonly rollups: RollupReads,
  ) {}

  @Get('metrics')
  @RequireScope('read:visibility')
  @ApiOperation({ operationId: 'geo_metrics', summary: 'Generative-engine figures of the brand over the period: visibility share, citation rate, citation share; overall and per provider' })
  @ApiOkResponse({ type: GeoMetricsResponse, example: GEO_METRICS_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  async metrics(@CurrentPrincipal() p: Principal, @Query() q: BrandPeriodQuery): Promise<GeoMetricsResponse> {
    const scope = await this.scopes.resolve(p, q);
    const f = brandFigures(scope, await this.rollups.sums(scope.filter, ['provider']));
    return { data: { brand: VisibilityScope.entity(scope, scope.brandEntityId), startDate: scope.period.start, endDate: scope.period.end, overall: geo(f.overall), providers: f.providers.map((x) => ({ provider: x.provider, ...geo(x) })) } };
  }
}
