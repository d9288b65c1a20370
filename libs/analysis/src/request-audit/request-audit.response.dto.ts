import { ApiProperty } from '@nestjs/swagger';
import { PROVIDERS, type Provider } from '../domain';

export class AuditRequestDto {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ type: 'integer', description: 'The analysis run it started (GET /api/v1/analysis-runs/{id})' }) analysisRunId!: number;
  @ApiProperty({ type: 'integer' }) brandId!: number;
  @ApiProperty({ type: [String] }) queries!: string[];
  @ApiProperty({ type: [String], enum: PROVIDERS }) providers!: Provider[];
  @ApiProperty({ enum: ['queued'] }) status!: 'queued';
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class AuditRequestResponse {
  @ApiProperty({ type: AuditRequestDto }) data!: AuditRequestDto;
}
