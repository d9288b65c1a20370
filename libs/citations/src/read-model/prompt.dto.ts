import { ApiProperty } from '@nestjs/swagger';
import { RateDto } from '@libs/http';
import { EntityDto, MeanDto, OwnerDto } from '../shared/citation.dto';

export class SentimentFiguresDto {
  @ApiProperty({ type: 'integer' }) positive!: number;
  @ApiProperty({ type: 'integer' }) neutral!: number;
  @ApiProperty({ type: 'integer' }) negative!: number;
  @ApiProperty({ type: MeanDto, description: '(positive - negative) / labelled answers × 100' }) netSentiment!: MeanDto;
  @ApiProperty({ type: MeanDto, description: 'Mean sentiment score in [-1, 1]' }) meanScore!: MeanDto;
}

export class PromptSourceDto {
  @ApiProperty({ example: 'g2.com' }) domain!: string;
  @ApiProperty({ type: OwnerDto }) owner!: OwnerDto;
  @ApiProperty({ type: 'integer' }) citations!: number;
}

export class CompetitorRateDto {
  @ApiProperty({ type: EntityDto }) entity!: EntityDto;
  @ApiProperty({ type: RateDto, description: "Answers to the prompt mentioning the competitor / the prompt's answers" }) mentionRate!: RateDto;
}
