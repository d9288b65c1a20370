import { ApiProperty } from '@nestjs/swagger';
import { EntityDto, OwnerDto, PromptRefDto } from '../shared/citation.dto';

export class AbsenceCompetitorDto {
  @ApiProperty({ type: EntityDto }) entity!: EntityDto;
  @ApiProperty({ type: 'integer', description: 'Answers citing the domain that mention this competitor and not the brand' }) answers!: number;
}

export class AbsencePromptDto {
  @ApiProperty({ type: PromptRefDto }) prompt!: PromptRefDto;
  @ApiProperty({ type: 'integer', description: 'Answers to it citing the domain that mention a competitor and not the brand' }) answers!: number;
}

export class CitationSourceAbsenceDto {
  @ApiProperty({ example: 'capterra.com' }) domain!: string;
  @ApiProperty({ type: 'number', description: 'Consensus score × competitor density, scaled so the top absence is 100' }) absenceScore!: number;
  @ApiProperty({ type: 'number', nullable: true, description: "The domain's consensus score in the brand's list (the top domain is 100)" }) consensusScore!: number | null;
  @ApiProperty({ type: 'number', description: 'Answers citing the domain that mention a competitor and not the brand / answers citing the domain' }) competitorDensity!: number;
  @ApiProperty({ type: 'integer' }) answersCiting!: number;
  @ApiProperty({ type: 'integer' }) competitorOnlyAnswers!: number;
  @ApiProperty({ type: 'integer' }) citations!: number;
  @ApiProperty({ type: OwnerDto }) owner!: OwnerDto;
  @ApiProperty({ type: [AbsenceCompetitorDto], description: 'The competitors those answers mention, most answers first' }) competitors!: AbsenceCompetitorDto[];
  @ApiProperty({ type: [AbsencePromptDto], description: 'The prompts of those answers, most answers first' }) prompts!: AbsencePromptDto[];
}

export class CitationSourceAbsencesDto {
  @ApiProperty({ type: 'string', format: 'date' }) startDate!: string;
  @ApiProperty({ type: 'string', format: 'date' }) endDate!: string;
  @ApiProperty({ type: 'integer' }) minScore!: number;
  @ApiProperty({ type: [CitationSourceAbsenceDto], description: 'Ranked by absence score' }) domains!: CitationSourceAbsenceDto[];
}

export class CitationSourceAbsencesResponse {
  @ApiProperty({ type: CitationSourceAbsencesDto }) data!: CitationSourceAbsencesDto;
}
