import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { DaysParam, OptionalIdQuery, PageOffset, queryInteger } from '@libs/http';

export const MAX_DAYS = 400;

/** `brandId` and `host`: narrow a read to one brand's visits or one site. */
export class AgentFilterQuery {
  @OptionalIdQuery('brandId', "Only visits to this brand's domains (404 unless the caller may see it)")
  brandId?: number;

  @ApiPropertyOptional({ description: 'Only visits to this host (as sent: lower case, no port)', example: 'www.acme.example', maxLength: 253 })
  @IsOptional()
  @IsString({ message: 'host must be a host name' })
  @MaxLength(253, { message: 'host must be a host name' })
  @Matches(/^[A-Za-z0-9_.:[\]-]+$/, { message: 'host must be a host name' })
  host?: string;
}

/** The last `days` UTC days (default 30, at most 400), today included. */
export class AgentDaysQuery extends AgentFilterQuery {
  @DaysParam('days', { max: MAX_DAYS, fallback: 30 })
  days: number = 30;
}

/** `botName`: one agent by the name it calls itself (`GPTBot`), case-insensitive. */
export const BotNameQuery = () => (target: object, key: string | symbol) => {
  ApiPropertyOptional({ description: 'Only this agent (its name, e.g. GPTBot; case-insensitive)', maxLength: 100, example: 'GPTBot' })(target, key);
  IsOptional()(target, key);
  IsString({ message: 'botName must be a string of at most 100 characters' })(target, key as string);
  MaxLength(100, { message: 'botName must be a string of at most 100 characters' })(target, key as string);
};

/** A page size with its own bounds (`limit`, 1..max, default as given by the property). */
export const LimitQuery = (max: number, fallback: number) => (target: object, key: string | symbol) => {
  const message = `limit must be an integer from 1 to ${max}`;
  ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: max, default: fallback, description: 'Page size' })(target, key);
  IsOptional()(target, key);
  Transform(queryInteger)(target, key);
  IsInt({ message })(target, key as string);
  Min(1, { message })(target, key as string);
  Max(max, { message })(target, key as string);
};

export { PageOffset };
