import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { queryInteger } from '../params';

/** The longest "last N days" a read over days takes (a year). */
export const MAX_DAYS_PARAM = 365;

/**
 * A bounded days parameter (`days`, `range`): the last N days up to today (UTC), an integer from 1
 * to `max`; anything else is 400 `<field> must be an integer from 1 to <max>`. The property's
 * initialiser gives the default, when it has one (say so with `fallback`, for the document).
 */
export function DaysParam(field: string, o: { max?: number; description?: string; fallback?: number } = {}): PropertyDecorator {
  const max = o.max ?? MAX_DAYS_PARAM;
  const message = `${field} must be an integer from 1 to ${max}`;
  return applyDecorators(
    ApiPropertyOptional({ description: o.description ?? 'The last N days up to today (UTC)', type: 'integer', minimum: 1, maximum: max, ...(o.fallback === undefined ? {} : { default: o.fallback }) }),
    IsOptional(),
    Transform(queryInteger),
    IsInt({ message }),
    Min(1, { message }),
    Max(max, { message }),
  );
}
