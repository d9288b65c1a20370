import { ApiProperty } from '@nestjs/swagger';
import { RateDto } from '@libs/http';
import { EntityDto, MeanDto, OwnerDto } from '../shared/citation.dto';

/** Which labeller decided the brand's labelled answers (issue 32): the sentiment judge or the offline model. */
export class LabelledByDto {
  @ApiProperty({ type: 'integer', description: 'Labelled answers whose label the sentiment judge decided' }) judge!: number;
  @ApiProperty({ type: 'integer', description: 'Labelled answers whose label the offline model decided' }) model!: number;
  @ApiProperty({ type: 'integer', description: 'Of the model-labelled answers, those whose judge call failed, refused or answered out of format' }) judgeFallbacks!: number;
}

export class SentimentFiguresDto {
  @ApiProperty({ type: 'integer' }) positive!: number;
  @ApiProperty({ type: 'integer' }) neutral!: number;
  @ApiProperty({ type: 'integer' }) negative!: number;
  @ApiProperty({ type: MeanDto, description: '(positive - negative) / labelled answers × 100' }) netSentiment!: MeanDto;
  @ApiProperty({ type: MeanDto, description: 'Mean sentiment score in [-1, 1]' }) meanScore!: MeanDto;
  @ApiProperty({ type: LabelledByDto, description: 'How many labelled answers each labeller decided (judge + model = labelled)' }) labelledBy!: LabelledByDto;
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
