import { ApiProperty } from '@nestjs/swagger';
import { SeriesPointDto } from '@libs/http';
import { EntityDto, PromptRefDto } from '../shared/citation.dto';

export class PromptSeriesDto {
  @ApiProperty({ type: PromptRefDto }) prompt!: PromptRefDto;
  @ApiProperty({ type: [SeriesPointDto], description: 'Answers mentioning the brand / answers, per day (n, 95 % Wilson interval)' }) mentionRate!: SeriesPointDto[];
  @ApiProperty({ type: [SeriesPointDto], description: 'Mean rank of the brand where ranked, per day (n: ranked answers)' }) averagePosition!: SeriesPointDto[];
  @ApiProperty({ type: [SeriesPointDto], description: 'Answers mentioning a competitor and not the brand / answers, per day' }) gapRate!: SeriesPointDto[];
}

export class PromptTrendsDto {
  @ApiProperty({ type: EntityDto }) brand!: EntityDto;
  @ApiProperty({ type: 'string', format: 'date' }) startDate!: string;
  @ApiProperty({ type: 'string', format: 'date' }) endDate!: string;
  @ApiProperty({ type: [PromptSeriesDto], description: 'One entry per prompt with answers in the period, by query; every day present (n: 0 and nulls without answers)' }) prompts!: PromptSeriesDto[];
}

export class PromptTrendsResponse {
  @ApiProperty({ type: PromptTrendsDto }) data!: PromptTrendsDto;
}
