import { ApiProperty } from '@nestjs/swagger';
import { PROVIDERS, type Provider } from '../domain';

export class AuditRequestDto {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ type: 'integer', description: 'The analysis run it started (GET /api/v1/analysis-runs/{id})' }) analysisRunId!: number;
  @ApiProperty({ type: 'integer' }) brandId!: number;
  @ApiProperty({ type: [String] }) queries!: string[];
  @ApiProperty({ type: [String], enum: PROVIDERS }) providers!: Provider[];
  @ApiProperty({ type: String, nullable: true, description: 'The country asked for (ISO 3166-1 alpha-2); null: the providers’ default' }) country!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The language asked in (BCP 47); null: the providers’ default' }) language!: string | null;
  @ApiProperty({ enum: ['queued'] }) status!: 'queued';
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class AuditRequestResponse {
  @ApiProperty({ type: AuditRequestDto }) data!: AuditRequestDto;
}
