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

export class EntityShareSeriesDto {
  @ApiProperty({ type: EntityDto }) entity!: EntityDto;
  @ApiProperty({
    type: [SeriesPointDto],
    description: "The entity's mentions / all tracked entities' mentions that day (all providers unless filtered), with n (those mentions) and the 95 % Wilson interval, which counts mentions as independent (mentions in one answer are not: read it as a lower bound on the uncertainty)",
  })
  shareOfVoice!: SeriesPointDto[];
}

export class VisibilityTrendsDto {
  @ApiProperty({ type: EntityDto }) brand!: EntityDto;
  @ApiProperty({ type: 'string', format: 'date' }) startDate!: string;
  @ApiProperty({ type: 'string', format: 'date' }) endDate!: string;
  @ApiProperty({ type: TrendSeriesDto, description: 'All providers together' }) overall!: TrendSeriesDto;
  @ApiProperty({ type: [ProviderTrendDto] }) providers!: ProviderTrendDto[];
  @ApiProperty({ type: [EntityShareSeriesDto], description: 'Share of voice of the brand and of each competitor by day (the shares of a day add up to 1)' }) shareOfVoiceByEntity!: EntityShareSeriesDto[];
}

export class VisibilityTrendsResponse {
  @ApiProperty({ type: VisibilityTrendsDto }) data!: VisibilityTrendsDto;
}
