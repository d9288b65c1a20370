import { ApiProperty } from '@nestjs/swagger';
import { PROVIDERS, type Provider } from './domain';
import type { TrackedPrompt } from './tracked-prompts.repository';

export class PromptDto implements TrackedPrompt {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ type: 'integer' }) brandId!: number;
  @ApiProperty() query!: string;
  @ApiProperty({ type: String, nullable: true }) topic!: string | null;
  @ApiProperty({ type: [String] }) tags!: string[];
  @ApiProperty({ type: [String], enum: PROVIDERS }) providers!: Provider[];
  @ApiProperty({ type: String, nullable: true, description: 'The country it is asked for (ISO 3166-1 alpha-2); null: the providers’ default', example: 'DE' }) country!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The language it is asked in (BCP 47); null: the providers’ default', example: 'de' }) language!: string | null;
  @ApiProperty() isActive!: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class PromptResponse {
  @ApiProperty({ type: PromptDto }) data!: PromptDto;
}
