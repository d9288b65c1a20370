import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, registerDecorator, type ValidationArguments } from 'class-validator';
import { addDays, daysBetween, isDayKey, utcDay, type DayKey } from '@libs/metrics';
import { CountryQuery, LanguageQuery } from '../market';
import { OptionalIdQuery, queryInteger } from '../params';
import { PageLimit, PageOffset } from '../pagination';

/** The AI providers answers come from (DESIGN §13.1). */
export const PROVIDERS = ['chatgpt', 'claude', 'gemini', 'perplexity'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** A period when the request names none: the last 30 days, today included. */
export const DEFAULT_PERIOD_DAYS = 30;
/** The longest period a request may name, in days (a year, leap day included). */
export const MAX_PERIOD_DAYS = 366;

/** `startDate`/`endDate` are real calendar days, the end not before the start, the span at most MAX_PERIOD_DAYS; `days` goes with neither. */
function PeriodRule(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'period',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown, args: ValidationArguments) => value === undefined && periodProblem(args.object as PeriodFields) === null,
        defaultMessage: (args: ValidationArguments) => (args.value !== undefined ? 'period is not a parameter' : (periodProblem(args.object as PeriodFields) ?? '')),
      },
    });
}

interface PeriodFields {
  startDate?: unknown;
  endDate?: unknown;
  days?: unknown;
}

function periodProblem(q: PeriodFields): string | null {
  if (q.days !== undefined && (q.startDate !== undefined || q.endDate !== undefined)) return 'days cannot be combined with startDate or endDate';
  if (typeof q.startDate === 'string' && typeof q.endDate === 'string' && isDayKey(q.startDate) && isDayKey(q.endDate)) {
    const span = daysBetween(q.startDate, q.endDate) + 1;
    if (span < 1) return 'endDate must not be before startDate';
    if (span > MAX_PERIOD_DAYS) return `the period from startDate to endDate must be at most ${MAX_PERIOD_DAYS} days`;
  }
  return null;
}

const dayMessage = (field: string) => `${field} must be a calendar date YYYY-MM-DD`;
const daysMessage = `days must be an integer from 1 to ${MAX_PERIOD_DAYS}`;

/** A day parameter (`startDate`, `endDate`): a real calendar day, `YYYY-MM-DD`. */
export function DayQuery(field: string, description: string): PropertyDecorator {
  return (target, key) => {
    ApiPropertyOptional({ description, type: 'string', format: 'date', example: '2026-01-31' })(target, key);
    IsOptional()(target, key);
    // One rule: a string that is a real calendar day (isDayKey checks the YYYY-MM-DD shape too).
    registerDecorator({ name: 'isDayKey', target: target.constructor, propertyName: key as string, options: { message: dayMessage(field) }, validator: { validate: (v: unknown) => typeof v === 'string' && isDayKey(v) } });
  };
}

/**
 * `endDate` of an open-ended day range (a list filtered "on or after" / "on or before"): with
 * `startDate` too, not before it and at most MAX_PERIOD_DAYS days from it, both included.
 * Put it after `@DayQuery('endDate', …)` on the same property.
 */
export function RangeEndRule(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'rangeEnd',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (end: unknown, args: ValidationArguments) => periodProblem({ startDate: (args.object as PeriodFields).startDate, endDate: end }) === null,
        defaultMessage: (args: ValidationArguments) => periodProblem({ startDate: (args.object as PeriodFields).startDate, endDate: args.value }) ?? '',
      },
    });
}

/** `brandId`, required: the brand the figures are about. */
export class BrandQuery {
  @ApiProperty({ description: 'The brand', minimum: 1, type: 'integer' })
  @Transform(queryInteger)
  @IsInt({ message: 'brandId must be a positive integer' })
  @Min(1, { message: 'brandId must be a positive integer' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'brandId must be a positive integer' })
  brandId!: number;

  @OptionalIdQuery('clientId', "The brand's client (a check: another client's or an unknown client is 404)")
  clientId?: number;
}

/**
 * A brand and the market of the answers read (DESIGN §17): `country` (ISO 3166-1 alpha-2) and
 * `language` (BCP 47), validated and normalised like the request fields that set them; without
 * them, answers of every market. What every read of analysed answers takes.
 */
export class BrandMarketQuery extends BrandQuery {
  @CountryQuery()
  country?: string;

  @LanguageQuery()
  language?: string;
}

/**
 * A brand and a period of UTC days, with the optional answer filters every analytics read takes.
 * The period is `startDate`..`endDate` (both included; one alone runs from it for 30 days, or to it
 * from 30 days before), or the last `days` days up to today, or, with none of them, the last 30
 * days. `days` with a date, an end before the start, or more than 366 days is 400.
 */
export class BrandPeriodQuery extends BrandMarketQuery {
  @DayQuery('startDate', 'First day of the period (UTC), included')
  startDate?: string;

  @DayQuery('endDate', 'Last day of the period (UTC), included')
  endDate?: string;

  @ApiPropertyOptional({ description: `The last N days up to today (UTC); default ${DEFAULT_PERIOD_DAYS} when no date is given`, minimum: 1, maximum: MAX_PERIOD_DAYS, type: 'integer' })
  @IsOptional()
  @Transform(queryInteger)
  @IsInt({ message: daysMessage })
  @Min(1, { message: daysMessage })
  @Max(MAX_PERIOD_DAYS, { message: daysMessage })
  days?: number;

  @ApiPropertyOptional({ description: 'Only answers of this provider', enum: PROVIDERS })
  @IsOptional()
  @IsIn(PROVIDERS, { message: `provider must be one of ${PROVIDERS.join(', ')}` })
  provider?: Provider;

  @OptionalIdQuery('promptId', 'Only answers to this prompt')
  promptId?: number;

  @ApiPropertyOptional({ description: 'Only answers to prompts of this topic', maxLength: 200 })
  @IsOptional()
  @IsString({ message: 'topic must be a string' })
  @MaxLength(200, { message: 'topic must be at most 200 characters' })
  topic?: string;

  /** Not a parameter: where the rule across startDate, endDate and days reports (as field `period`). */
  @PeriodRule()
  period?: never;
}

/** A brand-period query of a paginated list. */
export class BrandPeriodPageQuery extends BrandPeriodQuery {
  @PageLimit()
  limit: number = 50;

  @PageOffset()
  offset: number = 0;
}

/** A validated brand-period query, resolved to its days and filters. */
export interface BrandPeriod {
  brandId: number;
  /** First and last UTC day, both included. */
  start: DayKey;
  end: DayKey;
  /** Days in the period. */
  days: number;
  provider?: Provider;
  promptId?: number;
  topic?: string;
  country?: string;
  language?: string;
}

/** The period a validated query names, `today` being the current UTC day. */
export function resolveBrandPeriod(q: BrandPeriodQuery, today: DayKey = utcDay(Date.now())): BrandPeriod {
  let start: DayKey;
  let end: DayKey;
  if (q.startDate !== undefined && q.endDate !== undefined) [start, end] = [q.startDate, q.endDate];
  else if (q.startDate !== undefined) [start, end] = [q.startDate, addDays(q.startDate, DEFAULT_PERIOD_DAYS - 1)];
  else if (q.endDate !== undefined) [start, end] = [addDays(q.endDate, -(DEFAULT_PERIOD_DAYS - 1)), q.endDate];
  else [start, end] = [addDays(today, -((q.days ?? DEFAULT_PERIOD_DAYS) - 1)), today];
  const period: BrandPeriod = { brandId: q.brandId, start, end, days: daysBetween(start, end) + 1 };
  if (q.provider !== undefined) period.provider = q.provider;
  if (q.promptId !== undefined) period.promptId = q.promptId;
  if (q.topic !== undefined) period.topic = q.topic;
  if (q.country !== undefined) period.country = q.country;
  if (q.language !== undefined) period.language = q.language;
  return period;
}
