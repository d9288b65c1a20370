import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** The optional `brandId` filter of the opportunity and outcome reads. */
export class BrandFilterQuery {
  @ApiPropertyOptional({ description: 'Only this brand' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'brandId must be a positive integer' })
  @Min(1, { message: 'brandId must be a positive integer' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'brandId must be a positive integer' })
  brandId?: number;
}
