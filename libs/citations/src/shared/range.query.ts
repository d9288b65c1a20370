import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { BrandMarketQuery, queryInteger } from '@libs/http';

export const MAX_RANGE_DAYS = 365;
const rangeMessage = `range must be an integer from 1 to ${MAX_RANGE_DAYS}`;
const limitMessage = 'limit must be an integer from 1 to 200';

/** A brand over its last `range` days (default 30, at most 365), and how many domains to list (default 50, at most 200). */
export class RangeQuery extends BrandMarketQuery {
  @ApiPropertyOptional({ description: 'The last N days up to today (UTC)', type: 'integer', minimum: 1, maximum: MAX_RANGE_DAYS, default: 30 })
  @IsOptional()
  @Transform(queryInteger)
  @IsInt({ message: rangeMessage })
  @Min(1, { message: rangeMessage })
  @Max(MAX_RANGE_DAYS, { message: rangeMessage })
  range: number = 30;

  @ApiPropertyOptional({ description: 'Domains to list', type: 'integer', minimum: 1, maximum: 200, default: 50 })
  @IsOptional()
  @Transform(queryInteger)
  @IsInt({ message: limitMessage })
  @Min(1, { message: limitMessage })
  @Max(200, { message: limitMessage })
  limit: number = 50;
}
