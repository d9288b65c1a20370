import { ApiProperty } from '@nestjs/swagger';
import { CitationSourceRecordDto } from '../read-model/source-record.dto';
import { PromptRefDto } from '../shared/citation.dto';

export class SourcePromptDto {
  @ApiProperty({ type: PromptRefDto }) prompt!: PromptRefDto;
  @ApiProperty({ type: 'integer' }) citations!: number;
  @ApiProperty({ type: 'integer', description: 'Answers to this prompt citing the URL' }) answers!: number;
  @ApiProperty({ format: 'date-time' }) lastSeen!: string;
}

export class CitationSourceDetailDto extends CitationSourceRecordDto {
  @ApiProperty({ type: 'integer' }) brandId!: number;
  @ApiProperty({ type: [SourcePromptDto], description: 'The prompts whose answers cite it, most answers first (at most 50)' }) prompts!: SourcePromptDto[];
}

export class CitationSourceResponse {
  @ApiProperty({ type: CitationSourceDetailDto }) data!: CitationSourceDetailDto;
}
