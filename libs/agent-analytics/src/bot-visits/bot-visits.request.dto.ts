import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { queryInteger } from '@libs/http';
import { AgentFilterQuery, BotNameQuery, LimitQuery, PageOffset } from '../agent-queries';

const sinceMessage = 'sinceDays must be an integer from 1 to 90';

/** The contract's bounds: sinceDays 1-90 (default 7), limit 1-500 (default 100), offset ≥ 0. */
export class BotVisitsQuery extends AgentFilterQuery {
  @BotNameQuery()
  botName?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 90, default: 7, description: 'The last N days up to today (UTC)' })
  @IsOptional()
  @Transform(queryInteger)
  @IsInt({ message: sinceMessage })
  @Min(1, { message: sinceMessage })
  @Max(90, { message: sinceMessage })
  sinceDays: number = 7;

  @LimitQuery(500, 100)
  limit: number = 100;

  @PageOffset()
  offset: number = 0;
}
