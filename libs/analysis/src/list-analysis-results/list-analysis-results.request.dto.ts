import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { CountryQuery, DayQuery, LanguageQuery, MAX_PERIOD_DAYS, OptionalIdQuery, PaginationQuery, RangeEndRule } from '@libs/http';
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

  @DayQuery('endDate', `Answers asked on or before this UTC day; with startDate, not before it and at most ${MAX_PERIOD_DAYS} days from it (both included)`)
  @RangeEndRule()
  endDate?: string;

  @CountryQuery()
  country?: string;

  @LanguageQuery()
  language?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 200, description: 'Only the answers containing this text (case-insensitive)' })
  @IsOptional()
  @IsString({ message: 'text must be a string' })
  @MinLength(1, { message: 'text must be 1 to 200 characters' })
  @MaxLength(200, { message: 'text must be 1 to 200 characters' })
  text?: string;
}
