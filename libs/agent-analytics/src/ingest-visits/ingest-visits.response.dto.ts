import { ApiProperty } from '@nestjs/swagger';

export class IngestRejectionDto {
  @ApiProperty({ type: 'integer', description: 'Index of the entry in the batch (0-based; for NDJSON, line number - 1)' }) index!: number;
  @ApiProperty({ example: 'the visit is older than the retention period (400 days)' }) reason!: string;
}

export class IngestResultDto {
  @ApiProperty({ type: 'integer', description: 'Entries taken (bot visits, AI referrals and other visits)' }) accepted!: number;
  @ApiProperty({ type: 'integer', description: 'Well-formed entries refused (older than the retention period)' }) rejected!: number;
  @ApiProperty({ type: 'integer', description: 'Visits of catalogue AI agents, stored' }) botVisits!: number;
  @ApiProperty({ type: 'integer', description: 'Human visits sent by an AI assistant, counted' }) aiReferrals!: number;
  @ApiProperty({ type: 'integer', description: 'Other visits (people, other bots): accepted, not stored' }) otherVisits!: number;
  @ApiProperty({ type: [IngestRejectionDto], description: 'The first 100 rejected entries with their reasons' }) rejections!: IngestRejectionDto[];
}

export class IngestVisitsResponse {
  @ApiProperty({ type: IngestResultDto }) data!: IngestResultDto;
}

export const INGEST_EXAMPLE = { data: { accepted: 3, rejected: 0, botVisits: 2, aiReferrals: 1, otherVisits: 0, rejections: [] } };
