import { ApiProperty } from '@nestjs/swagger';
import { PROVIDERS } from '@libs/http';
import { EntityDto, SeriesPointDto } from '../read-model/figure.dto';

export class TrendSeriesDto {
  @ApiProperty({ type: [SeriesPointDto], description: 'Answers mentioning the brand / answers, with n and the 95 % Wilson interval' }) mentionRate!: SeriesPointDto[];
  @ApiProperty({ type: [SeriesPointDto], description: "The brand's mentions / all tracked entities' mentions (n: those mentions; no interval)" }) shareOfVoice!: SeriesPointDto[];
  @ApiProperty({ type: [SeriesPointDto], description: 'Mean rank where the brand is ranked (n: ranked answers)' }) averagePosition!: SeriesPointDto[];
}

export class ProviderTrendDto extends TrendSeriesDto {
  @ApiProperty({ enum: PROVIDERS }) provider!: string;
}

export class VisibilityTrendsDto {
  @ApiProperty({ type: EntityDto }) brand!: EntityDto;
  @ApiProperty({ type: 'string', format: 'date' }) startDate!: string;
  @ApiProperty({ type: 'string', format: 'date' }) endDate!: string;
  @ApiProperty({ type: TrendSeriesDto, description: 'All providers together' }) overall!: TrendSeriesDto;
  @ApiProperty({ type: [ProviderTrendDto] }) providers!: ProviderTrendDto[];
}

export class VisibilityTrendsResponse {
  @ApiProperty({ type: VisibilityTrendsDto }) data!: VisibilityTrendsDto;
}
