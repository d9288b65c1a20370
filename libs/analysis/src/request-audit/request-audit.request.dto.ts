import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsInt, IsString, Max, Min, ValidateBy, type ValidationArguments } from 'class-validator';
import { CountryField, LanguageField, Omittable } from '@libs/http';
import { MAX_QUERY_LENGTH, PROVIDERS, queryProblem, type Provider } from '../domain';

/** Queries an audit request may carry (DESIGN §13.1). */
export const MAX_AUDIT_QUERIES = 100;

function queriesProblem(value: unknown): string | null {
  if (!Array.isArray(value)) return null;
  for (let k = 0; k < value.length; k++) {
    const problem = queryProblem(value[k]);
    if (problem) return `queries[${k}]: ${problem.replace(/^query /, '')}`;
  }
  return null;
}

export class RequestAuditRequest {
  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'brandId must be a positive integer' })
  @Min(1, { message: 'brandId must be a positive integer' })
  @IsInt({ message: 'brandId must be a positive integer' })
  brandId!: number;

  @ApiProperty({ type: [String], minItems: 1, maxItems: MAX_AUDIT_QUERIES, description: `1 to ${MAX_AUDIT_QUERIES} queries of 1 to ${MAX_QUERY_LENGTH} characters`, example: ['best CRM for a small agency'] })
  @ValidateBy({
    name: 'auditQueries',
    validator: { validate: (v: unknown) => queriesProblem(v) === null, defaultMessage: (a?: ValidationArguments) => queriesProblem(a?.value) ?? 'queries are not valid' },
  })
  @IsString({ each: true, message: 'queries must be strings' })
  @ArrayMaxSize(MAX_AUDIT_QUERIES, { message: `queries must list at most ${MAX_AUDIT_QUERIES} queries` })
  @ArrayMinSize(1, { message: 'queries must list at least one query' })
  @IsArray({ message: 'queries must be an array of strings' })
  queries!: string[];

  @ApiPropertyOptional({ type: [String], enum: PROVIDERS, minItems: 1, description: 'The AI providers to ask (all when omitted)' })
  @Omittable()
  @IsIn(PROVIDERS, { each: true, message: `providers must each be one of the available providers: ${PROVIDERS.join(', ')}` })
  @ArrayUnique({ message: 'providers must list each provider at most once' })
  @ArrayMinSize(1, { message: 'providers must list at least one provider' })
  @IsArray({ message: 'providers must be an array' })
  providers?: Provider[];

  @ApiPropertyOptional({ type: Boolean, default: false, description: 'true: answer 200 with the expected cost ({data: {estimate}}) and ask nothing, record nothing, count nothing against the quota' })
  @Omittable()
  @IsBoolean({ message: 'dryRun must be true or false' })
  dryRun?: boolean;

  @CountryField({ description: 'The country to ask every query for (ISO 3166-1 alpha-2, any case); omitted: the providers’ default' })
  country?: string;

  @LanguageField({ description: 'The language to ask every query in (BCP 47, e.g. de or pt-BR); omitted: the providers’ default' })
  language?: string;
}
