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

class ProviderEstimateDto {
  @ApiProperty({ enum: PROVIDERS }) provider!: Provider;
  @ApiProperty({ type: 'integer', description: 'Questions to this provider' }) questions!: number;
  @ApiProperty({ enum: ['live', 'recorded'], description: 'recorded: no API key, answered by the recorded source at no cost' }) source!: 'live' | 'recorded';
  @ApiProperty({ type: 'integer' }) inputTokens!: number;
  @ApiProperty({ type: 'integer' }) outputTokens!: number;
  @ApiProperty() usd!: number;
}

export class AuditEstimateDto {
  @ApiProperty({ type: 'integer', description: 'queries × providers' }) questions!: number;
  @ApiProperty({ type: 'integer' }) inputTokens!: number;
  @ApiProperty({ type: 'integer' }) outputTokens!: number;
  @ApiProperty({ description: 'Expected USD: per provider, the average tokens of the organisation’s latest 50 answers (the typical usage before it has any) at today’s prices' }) usd!: number;
  @ApiProperty({ type: [ProviderEstimateDto] }) byProvider!: ProviderEstimateDto[];
}

class DryRunDto {
  @ApiProperty({ type: AuditEstimateDto }) estimate!: AuditEstimateDto;
}

/** dryRun: true answers 200 with the estimate; nothing is recorded or asked. */
export class AuditDryRunResponse {
  @ApiProperty({ type: DryRunDto }) data!: DryRunDto;
}

export class AuditRequestResponse {
  @ApiProperty({ type: AuditRequestDto }) data!: AuditRequestDto;
}
