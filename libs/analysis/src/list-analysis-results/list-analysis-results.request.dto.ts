import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, ValidateBy } from 'class-validator';
import { DayQuery, OptionalIdQuery, PaginationQuery } from '@libs/http';
import { daysBetween, isDayKey } from '@libs/metrics';
import { PROVIDERS, type Provider } from '../domain';

export class ListAnalysisResultsQuery extends PaginationQuery {
  @OptionalIdQuery('brandId', 'Only the answers about this brand')
  brandId?: number;

  @ApiPropertyOptional({ enum: PROVIDERS, description: 'Only the answers of this provider' })
  @IsOptional()
  @IsIn(PROVIDERS, { message: `provider must be one of ${PROVIDERS.join(', ')}` })
  provider?: Provider;

  @DayQuery('startDate', 'Answers asked on or after this UTC day')
  startDate?: string;

  @DayQuery('endDate', 'Answers asked on or before this UTC day')
  @ValidateBy({
    name: 'endNotBeforeStart',
    validator: {
      validate: (end: unknown, args) => {
        const start = (args?.object as { startDate?: unknown }).startDate;
        return typeof start !== 'string' || typeof end !== 'string' || !isDayKey(start) || !isDayKey(end) || daysBetween(start, end) >= 0;
      },
      defaultMessage: () => 'endDate must not be before startDate',
    },
  })
  endDate?: string;
}
