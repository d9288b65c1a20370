import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsObject, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { Omittable } from '@libs/http';
import { SEVERITIES, TYPES, type OpportunityType, type Severity } from '../domain';

export class DetectOpportunityRequest {
  @ApiProperty({ description: 'A brand of the caller' })
  @IsInt({ message: 'brandId must be a positive integer' })
  @Min(1, { message: 'brandId must be a positive integer' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'brandId must be a positive integer' })
  brandId!: number;

  @ApiProperty({ enum: TYPES })
  @IsIn(TYPES, { message: `type must be one of: ${TYPES.join(', ')}` })
  type!: OpportunityType;

  @ApiProperty({ enum: SEVERITIES })
  @IsIn(SEVERITIES, { message: `severity must be one of: ${SEVERITIES.join(', ')}` })
  severity!: Severity;

  @ApiProperty({ minLength: 1, maxLength: 300 })
  @IsString({ message: 'title must be a string' })
  @MinLength(1, { message: 'title must not be empty' })
  @MaxLength(300, { message: 'title must be at most 300 characters' })
  title!: string;

  @ApiPropertyOptional({ maxLength: 5000 })
  @Omittable()
  @IsString({ message: 'description must be a string' })
  @MaxLength(5000, { message: 'description must be at most 5000 characters' })
  description?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'What the detector saw' })
  @Omittable()
  @IsObject({ message: 'evidence must be an object' })
  evidence?: Record<string, unknown>;

  @ApiPropertyOptional({ maxLength: 200, description: 'Same problem, same fingerprint; derived from brand, type and title when omitted' })
  @Omittable()
  @IsString({ message: 'fingerprint must be a string' })
  @MinLength(1, { message: 'fingerprint must not be empty' })
  @MaxLength(200, { message: 'fingerprint must be at most 200 characters' })
  fingerprint?: string;
}
