import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { BrandPeriodQuery, queryInteger } from '@libs/http';

export const MAX_TREND_DAYS = 365;
const message = `days must be an integer from 1 to ${MAX_TREND_DAYS}`;

/** The last `days` days (default 30, at most 365) of a brand, with the answer filters. */
export class VisibilityTrendsQuery extends BrandPeriodQuery {
  @ApiPropertyOptional({ description: 'The last N days up to today (UTC), default 30', minimum: 1, maximum: MAX_TREND_DAYS, type: 'integer' })
  @IsOptional()
  @Transform(queryInteger)
  @IsInt({ message })
  @Min(1, { message })
  @Max(MAX_TREND_DAYS, { message })
  declare days?: number;
}
