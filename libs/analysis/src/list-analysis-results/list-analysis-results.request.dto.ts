import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, ValidateBy } from 'class-validator';
import { OptionalIdQuery, PaginationQuery } from '@libs/http';
import { daysBetween, isDayKey } from '@libs/metrics';
import { PROVIDERS, type Provider } from '../domain';

const dayRule = (field: string) =>
  ValidateBy({ name: 'isDayKey', validator: { validate: (v: unknown) => typeof v === 'string' && isDayKey(v), defaultMessage: () => `${field} must be a calendar date YYYY-MM-DD` } });

export class ListAnalysisResultsQuery extends PaginationQuery {
  @OptionalIdQuery('brandId', 'Only the answers about this brand')
  brandId?: number;

  @ApiPropertyOptional({ enum: PROVIDERS, description: 'Only the answers of this provider' })
  @IsOptional()
  @IsIn(PROVIDERS, { message: `provider must be one of ${PROVIDERS.join(', ')}` })
  provider?: Provider;

  @ApiPropertyOptional({ type: 'string', format: 'date', description: 'Answers asked on or after this UTC day' })
  @IsOptional()
  @dayRule('startDate')
  startDate?: string;

  @ApiPropertyOptional({ type: 'string', format: 'date', description: 'Answers asked on or before this UTC day' })
  @IsOptional()
  @dayRule('endDate')
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
