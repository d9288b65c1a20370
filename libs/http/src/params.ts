import { applyDecorators, type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min, ValidateIf } from 'class-validator';
import { ApiError } from './api-error';

/** A positive integer id from the path (`{id}`, `{keyId}`); anything else is 400 naming the parameter. */
@Injectable()
export class ParseIdPipe implements PipeTransform<string | number, number> {
  transform(value: string | number, metadata: ArgumentMetadata): number {
    const field = metadata.data ?? 'id';
    const text = typeof value === 'number' ? String(value) : value;
    if (typeof text !== 'string' || !/^[0-9]{1,15}$/.test(text) || Number(text) < 1) {
      throw ApiError.validation([{ field, message: `${field} must be a positive integer` }]);
    }
    return Number(text);
  }
}

/** Splits a comma-separated query value into distinct trimmed items (for class-transformer @Transform). */
export function commaList({ value }: { value: unknown }): unknown {
  if (typeof value !== 'string') return value;
  return [...new Set(value.split(',').map((s) => s.trim()))];
}

/**
 * A decimal integer from a query string (`12`, `-3`), for class-transformer's @Transform. Anything
 * else (`0x10`, `1e2`, `+5`, ` 5`, a repeated parameter) becomes NaN or stays as is and fails
 * validation: `Number()` alone would read `0x10` as 16.
 */
export function queryInteger({ value }: { value: unknown }): unknown {
  if (typeof value !== 'string') return value;
  return /^-?[0-9]{1,15}$/.test(value) ? Number(value) : Number.NaN;
}

/** `true`/`false` (also 1/0) from a query string; anything else stays as is and fails validation. */
export function queryBoolean({ value }: { value: unknown }): unknown {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return value;
}

/**
 * An optional positive integer id in a query string (`?brandId=`, `?clientId=`): converted from the
 * text and validated, with one message naming the field.
 */
export function OptionalIdQuery(field: string, description: string): PropertyDecorator {
  const message = `${field} must be a positive integer`;
  return applyDecorators(
    ApiPropertyOptional({ description, minimum: 1, type: 'integer' }),
    IsOptional(),
    Transform(queryInteger),
    IsInt({ message }),
    Min(1, { message }),
    Max(Number.MAX_SAFE_INTEGER, { message }),
  );
}

/**
 * An optional body field: it may be left out, but a `null` is validated like any other value, so
 * it is refused unless the field's own rules accept it (`IsOptional` would let `null` through).
 */
export const Omittable = () => ValidateIf((_object: object, value: unknown) => value !== undefined);
