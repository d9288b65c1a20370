import { ApiProperty } from '@nestjs/swagger';
import { PROVIDERS } from '@libs/http';
import { CHANGE_TYPES, SEVERITIES } from '../domain';
import { EntityDto, PromptRefDto } from '../shared/citation.dto';

export class EntityStateDto {
  @ApiProperty() mentioned!: boolean;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Its rank among the ranked entities (null: not ranked)' }) rank!: number | null;
  @ApiProperty({ type: String, enum: ['positive', 'neutral', 'negative'], nullable: true }) sentiment!: string | null;
}

export class AnswerRefDto {
  @ApiProperty({ example: '812-3', description: 'The analysis result (GET /analysis-results): <runId>-<n>' }) id!: string;
  @ApiProperty({ format: 'date-time' }) askedAt!: string;
}

/** A change between two answers to the same prompt by the same provider (DESIGN §14). */
export class ChangeDto {
  @ApiProperty({ example: '812-3:dropped_from_top3:brand-7', description: 'Stable: the answer, the type and what it is about' }) id!: string;
  @ApiProperty({ type: 'integer' }) brandId!: number;
  @ApiProperty({ enum: CHANGE_TYPES }) changeType!: string;
  @ApiProperty({ enum: SEVERITIES, description: 'By what was lost: the brand leaving an answer or its top 3 is high' }) severity!: string;
  @ApiProperty({ enum: PROVIDERS }) provider!: string;
  @ApiProperty({ type: PromptRefDto }) prompt!: PromptRefDto;
  @ApiProperty({ type: EntityDto, description: 'The brand, or for competitor_entered the competitor' }) entity!: EntityDto;
  @ApiProperty({ type: String, nullable: true, description: "The brand's domain gained or lost (citation changes); null otherwise" }) domain!: string | null;
  @ApiProperty({ type: EntityStateDto, description: 'The entity in the previous answer' }) before!: EntityStateDto;
  @ApiProperty({ type: EntityStateDto, description: 'The entity in this answer' }) after!: EntityStateDto;
  @ApiProperty({ type: AnswerRefDto }) previousAnswer!: AnswerRefDto;
  @ApiProperty({ type: AnswerRefDto }) answer!: AnswerRefDto;
  @ApiProperty({ format: 'date-time', description: 'When the answer showing the change was asked' }) detectedAt!: string;
}
