import { ApiProperty } from '@nestjs/swagger';
import { EntityDto, SeriesPointDto } from '../read-model/figure.dto';

export class SentimentTrendsDto {
  @ApiProperty({ type: EntityDto }) brand!: EntityDto;
  @ApiProperty({ type: 'string', format: 'date' }) startDate!: string;
  @ApiProperty({ type: 'string', format: 'date' }) endDate!: string;
  @ApiProperty({ type: [SeriesPointDto], description: 'Daily net sentiment in [-100, 100] (n: labelled answers)' }) netSentiment!: SeriesPointDto[];
  @ApiProperty({ type: [SeriesPointDto], description: 'Daily share of labelled answers that are positive, with the 95 % Wilson interval' }) positiveRate!: SeriesPointDto[];
  @ApiProperty({ type: [SeriesPointDto], description: 'Daily share of labelled answers that are negative, with the 95 % Wilson interval' }) negativeRate!: SeriesPointDto[];
}
export class SentimentTrendsResponse {
  @ApiProperty({ type: SentimentTrendsDto }) data!: SentimentTrendsDto;
}
