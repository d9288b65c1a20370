import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PROVIDERS } from '@libs/http';
import { DISCOVERY_ORIGINS } from '../domain';

export class DiscoveryOriginDto {
  @ApiProperty({
    enum: [...DISCOVERY_ORIGINS, 'search_console'],
    description: 'follow_up: a follow-up question the engine suggested; answer_text: a question in the answer text; search_console: a Search Console query of the brand (its channel rows)',
  })
  origin!: string;
  @ApiProperty({ type: 'integer', description: 'Times it was found there; for search_console, the query\'s impressions over the period' }) occurrences!: number;
  @ApiPropertyOptional({ type: 'integer', description: 'search_console only: the query\'s clicks over the period' }) clicks?: number;
}

export class PromptDiscoveryDto {
  @ApiProperty({ example: 'Which CRM integrates with Gmail?', description: 'The candidate prompt, as last found' }) question!: string;
  @ApiProperty({ type: 'integer', description: 'Times it was found' }) occurrences!: number;
  @ApiProperty({ type: 'integer', description: 'Answers it was found in (0 for a Search Console query alone)' }) answers!: number;
  @ApiProperty({ type: [DiscoveryOriginDto], description: 'Where it was found, and how often there' }) foundIn!: DiscoveryOriginDto[];
  @ApiProperty({ type: [String], enum: PROVIDERS, description: 'The providers whose answers held it' }) providers!: string[];
  @ApiProperty({ type: [String], description: 'Up to three of the tracked queries whose answers held it' }) prompts!: string[];
  @ApiProperty({ format: 'date-time' }) firstSeen!: string;
  @ApiProperty({ format: 'date-time' }) lastSeen!: string;
}

export class PromptDiscoveriesResponse {
  @ApiProperty({ type: [PromptDiscoveryDto], description: 'Candidates not tracked yet, found in most answers first' }) data!: PromptDiscoveryDto[];
}
