import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { queryInteger } from '@libs/http';

const DAYS_MESSAGE = 'days must be an integer from 1 to 365';

/** `days`: the window of both usage reads. */
export class UsageQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 365, default: 30, description: 'How many UTC days, today included' })
  @IsOptional()
  @Transform(queryInteger)
  @IsInt({ message: DAYS_MESSAGE })
  @Min(1, { message: DAYS_MESSAGE })
  @Max(365, { message: DAYS_MESSAGE })
  days: number = 30;
}
