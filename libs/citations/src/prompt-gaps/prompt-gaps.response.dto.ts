import { ApiProperty } from '@nestjs/swagger';
import { RateDto } from '@libs/http';
import { CompetitorRateDto, PromptSourceDto } from '../read-model/prompt.dto';
import { PromptRefDto } from '../shared/citation.dto';

export class GapCompetitorDto extends CompetitorRateDto {
  @ApiProperty({ type: 'integer', description: 'Answers mentioning this competitor and not the brand' }) gapAnswers!: number;
}

export class PromptGapDto {
  @ApiProperty({ type: PromptRefDto }) prompt!: PromptRefDto;
  @ApiProperty({ type: 'integer', description: 'Analysed answers to the prompt in the period' }) answers!: number;
  @ApiProperty({ type: 'integer', description: 'Answers mentioning a competitor and not the brand' }) gapAnswers!: number;
  @ApiProperty({ type: RateDto, description: 'gapAnswers / answers' }) gapRate!: RateDto;
  @ApiProperty({ type: RateDto, description: 'Answers mentioning the brand / answers' }) brandMentionRate!: RateDto;
  @ApiProperty({ type: [GapCompetitorDto], description: 'The competitors mentioned where the brand is not, most such answers first' }) competitors!: GapCompetitorDto[];
  @ApiProperty({ type: [PromptSourceDto], description: 'The five domains the gap answers cite most' }) sources!: PromptSourceDto[];
}

export class PromptGapsResponse {
  @ApiProperty({ type: [PromptGapDto], description: 'Prompts with at least one gap answer, most gap answers first' }) data!: PromptGapDto[];
}
