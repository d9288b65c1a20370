import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_BYTES, MAX_DURATION_MS } from '../domain/visit';

/** One visit as POST /agent-analytics/ingest takes it (DESIGN §13.2); documents the body, checked by visitFromEntry. */
export class IngestEntryDto {
  @ApiProperty({ description: 'ISO 8601 instant with a zone, or epoch milliseconds; not before 2000, at most a day ahead', example: '2026-11-24T08:15:02.114Z' }) timestamp!: string;
  @ApiProperty({ example: 'GET', maxLength: 16 }) method!: string;
  @ApiProperty({ description: 'The site host, with an optional port (1-65535)', example: 'www.acme.example' }) host!: string;
  @ApiProperty({ description: 'Path and query, starting with /', example: '/pricing?plan=pro', maxLength: 4096 }) path!: string;
  @ApiProperty({ type: 'integer', minimum: 100, maximum: 599, example: 200 }) status!: number;
  @ApiProperty({ description: 'Client address, IPv4 or IPv6 (an IPv6 zone, `%eth0`, is dropped)', example: '20.171.206.12' }) ip!: string;
  @ApiProperty({ maxLength: 1024, example: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)' }) userAgent!: string;
  @ApiPropertyOptional({ type: 'string', maxLength: 4096, nullable: true, example: 'https://chatgpt.com/' }) referer?: string | null;
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: MAX_BYTES, nullable: true, example: 5120 }) bytes?: number | null;
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: MAX_DURATION_MS, nullable: true, example: 42 }) durationMs?: number | null;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Request headers for verification: Signature, Signature-Input, Signature-Agent (Web Bot Auth); at most 50',
    example: { 'signature-agent': '"https://chatgpt.com"' },
  })
  headers?: Record<string, string>;
}
