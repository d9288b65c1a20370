import { ApiProperty } from '@nestjs/swagger';
import { FiguresOf, PROVIDERS } from '@libs/http';
import { EntityDto, MeanDto, RateDto } from '../read-model/figure.dto';

export class GeoFiguresDto {
  @ApiProperty({ type: MeanDto, description: "The brand's position-adjusted word-count share, averaged over answers (n: answers)" }) visibilityShare!: MeanDto;
  @ApiProperty({ type: RateDto, description: "Answers citing any of the brand's domains / answers with at least one citation" }) citationRate!: RateDto;
  @ApiProperty({ type: MeanDto, description: "Citations of the brand's domains / all citations (n: all citations)" }) citationShare!: MeanDto;
}
export class ProviderGeoDto extends GeoFiguresDto {
  @ApiProperty({ enum: PROVIDERS }) provider!: string;
}
export class GeoMetricsDto extends FiguresOf(EntityDto, GeoFiguresDto, ProviderGeoDto) {}
export class GeoMetricsResponse {
  @ApiProperty({ type: GeoMetricsDto }) data!: GeoMetricsDto;
}
