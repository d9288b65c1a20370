import { ApiProperty } from '@nestjs/swagger';
import { PROVIDERS } from '@libs/http';
import { EntityDto } from '../read-model/figure.dto';
import { SentimentFiguresDto } from '../read-model/sentiment.dto';

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
