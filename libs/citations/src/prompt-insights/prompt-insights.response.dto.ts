import { ApiProperty } from '@nestjs/swagger';
import { PageOf, RateDto } from '@libs/http';
import { CompetitorRateDto, PromptSourceDto, SentimentFiguresDto } from '../read-model/prompt.dto';
import { MeanDto, PromptRefDto } from '../shared/citation.dto';

export class PromptInsightDto {
  @ApiProperty({ type: PromptRefDto }) prompt!: PromptRefDto;
  @ApiProperty({ type: 'integer', description: 'Analysed answers to the prompt in the period' }) answers!: number;
  @ApiProperty({ type: RateDto, description: 'Answers mentioning the brand / answers' }) mentionRate!: RateDto;
  @ApiProperty({ type: MeanDto, description: 'Mean rank of the brand where it is ranked' }) averagePosition!: MeanDto;
  @ApiProperty({ type: SentimentFiguresDto, description: "The brand's sentiment in the answers mentioning it" }) sentiment!: SentimentFiguresDto;
  @ApiProperty({ type: CompetitorRateDto, nullable: true, description: 'The competitor mentioned in most of the answers (null when none is)' }) leadingCompetitor!: CompetitorRateDto | null;
  @ApiProperty({ type: [PromptSourceDto], description: "The five domains the prompt's answers cite most" }) sources!: PromptSourceDto[];
}

export class PromptInsightPage extends PageOf(PromptInsightDto) {}
