import { ApiProperty } from '@nestjs/swagger';
import { RateDto } from '@libs/http';

export class AgentOverviewDto {
  @ApiProperty({ type: 'string', format: 'date', example: '2026-10-26' }) startDate!: string;
  @ApiProperty({ type: 'string', format: 'date', example: '2026-11-24' }) endDate!: string;
  @ApiProperty({ type: 'integer', description: 'Visits of AI agents', example: 1250 }) visits!: number;
  @ApiProperty({ type: 'integer', example: 980 }) verifiedVisits!: number;
  @ApiProperty({ type: 'integer', description: 'Visits claiming a verifiable agent that failed its check', example: 40 }) spoofedVisits!: number;
  @ApiProperty({ type: 'integer', example: 230 }) unverifiableVisits!: number;
  @ApiProperty({ type: RateDto, description: 'Verified visits / visits' }) verifiedShare!: RateDto;
  @ApiProperty({ type: 'integer', description: 'Distinct agents seen', example: 9 }) uniqueBots!: number;
  @ApiProperty({ type: 'integer', description: 'Distinct pages (host and path, without query) agents fetched', example: 312 }) pagesCrawled!: number;
  @ApiProperty({ type: 'integer', description: 'Human visits sent by AI assistants', example: 57 }) aiReferralVisits!: number;
}

export class AgentOverviewResponse {
  @ApiProperty({ type: AgentOverviewDto }) data!: AgentOverviewDto;
}
