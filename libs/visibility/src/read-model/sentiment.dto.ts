import { ApiProperty } from '@nestjs/swagger';
import { MeanDto, RateDto } from './figure.dto';
import type { EntityFigures } from '../domain/entity-sums';
import { rate } from '@libs/metrics';

/** The brand's sentiment over a set of answers (DESIGN §14): label counts, net sentiment, mean score, shares with intervals. */
/** Which labeller decided the labelled answers of a sentiment figure (issue 32): the judge or the offline model. */
export class LabelledByDto {
  @ApiProperty({ type: 'integer', description: 'Labelled answers whose label the sentiment judge decided (`judge:<provider>/<model>`)' }) judge!: number;
  @ApiProperty({ type: 'integer', description: 'Labelled answers whose label the offline model decided (`model:<engineVersion>`)' }) model!: number;
  @ApiProperty({ type: 'integer', description: 'Of the model-labelled answers, those whose judge call failed, refused or answered out of format' }) judgeFallbacks!: number;
}

export class SentimentFiguresDto {
  @ApiProperty({ type: 'integer', description: 'Answers mentioning the brand with a sentiment label' }) labelled!: number;
  @ApiProperty({ type: 'integer' }) positive!: number;
  @ApiProperty({ type: 'integer' }) neutral!: number;
  @ApiProperty({ type: 'integer' }) negative!: number;
  @ApiProperty({ type: MeanDto, description: '(positive - negative) / labelled x 100, in [-100, 100]' }) netSentiment!: MeanDto;
  @ApiProperty({ type: MeanDto, description: 'Mean score in [-1, 1]' }) meanScore!: MeanDto;
  @ApiProperty({ type: RateDto, description: 'positive / labelled' }) positiveRate!: RateDto;
  @ApiProperty({ type: RateDto, description: 'negative / labelled' }) negativeRate!: RateDto;
  @ApiProperty({ type: LabelledByDto, description: 'How many labelled answers each labeller decided (judge + model = labelled)' }) labelledBy!: LabelledByDto;
}

export function sentimentFigures(f: EntityFigures): SentimentFiguresDto {
  const s = f.sentiment;
  const labelled = s.positive + s.neutral + s.negative;
  return { labelled, positive: s.positive, neutral: s.neutral, negative: s.negative, netSentiment: s.net, meanScore: s.meanScore, positiveRate: rate(s.positive, labelled), negativeRate: rate(s.negative, labelled), labelledBy: labelledBy(s, labelled) };
}

export function labelledBy(s: Pick<EntityFigures['sentiment'], 'judged' | 'judgeFallbacks'>, labelled: number): LabelledByDto {
  return { judge: s.judged, model: labelled - s.judged, judgeFallbacks: s.judgeFallbacks };
}
