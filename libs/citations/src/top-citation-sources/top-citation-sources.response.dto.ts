import { ApiProperty } from '@nestjs/swagger';
import { OwnerDto, ProviderCountDto } from '../shared/citation.dto';

export class CitationSourceDomainDto {
  @ApiProperty({ example: 'g2.com', description: "The cited URL's host without a leading www." }) domain!: string;
  @ApiProperty({ type: 'number', nullable: true, description: 'Consensus score: recency-weighted citations × provider coverage, scaled so the top domain is 100 (DESIGN §14)' }) consensusScore!: number | null;
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Citations of the domain in the range' }) citations!: number;
  @ApiProperty({ type: 'number', description: 'Providers citing it / providers asked in the range' }) providerCoverage!: number;
  @ApiProperty({ type: [ProviderCountDto], description: 'The providers citing it, most citations first' }) providers!: ProviderCountDto[];
  @ApiProperty({ format: 'date-time' }) firstSeen!: string;
  @ApiProperty({ format: 'date-time' }) lastSeen!: string;
  @ApiProperty({ type: OwnerDto }) owner!: OwnerDto;
  @ApiProperty({ type: [String], description: 'Up to three of its most cited URLs' }) exampleUrls!: string[];
}

export class TopCitationSourcesDto {
  @ApiProperty({ type: 'string', format: 'date' }) startDate!: string;
  @ApiProperty({ type: 'string', format: 'date' }) endDate!: string;
  @ApiProperty({ type: 'integer', description: 'Providers with an analysed answer of the brand in the range' }) providersAsked!: number;
  @ApiProperty({ type: 'integer', description: 'Domains cited in the range (before the limit)' }) totalDomains!: number;
  @ApiProperty({ type: [CitationSourceDomainDto], description: 'Ranked by consensus score' }) domains!: CitationSourceDomainDto[];
}

export class TopCitationSourcesResponse {
  @ApiProperty({ type: TopCitationSourcesDto }) data!: TopCitationSourcesDto;
}
