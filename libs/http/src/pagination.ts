import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { ApiError } from './api-error';
import { queryInteger } from './params';

const MAX_OFFSET = 1_000_000_000;

/** The page size of every list: `limit`, 1-200 (the property's initialiser gives the default, 50). */
export const PageLimit = () =>
  applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 50, description: 'Page size' }),
    IsOptional(),
    Transform(queryInteger),
    IsInt({ message: 'limit must be an integer from 1 to 200' }),
    Min(1, { message: 'limit must be an integer from 1 to 200' }),
    Max(200, { message: 'limit must be an integer from 1 to 200' }),
  );

/** The rows a page skips: `offset`, ≥ 0 (the property's initialiser gives the default, 0). */
export const PageOffset = () =>
  applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: MAX_OFFSET, default: 0, description: 'Rows to skip' }),
    IsOptional(),
    Transform(queryInteger),
    IsInt({ message: 'offset must be a non-negative integer' }),
    Min(0, { message: 'offset must be a non-negative integer' }),
    Max(MAX_OFFSET, { message: `offset must be at most ${MAX_OFFSET}` }),
  );

/**
 * The fields a list sorts by, each to its SQL column. A Map, so that no inherited name
 * (`constructor`, `__proto__`, `toString`) is ever a field.
 */
export type SortFields = ReadonlyMap<string, string>;

export function sortFields(fields: Record<string, string>): SortFields {
  return new Map(Object.entries(fields));
}

/** `sort`: one of the list's fields, an enum in the document; any other value is 400 naming them. */
export const SortBy = (fields: SortFields, fallback: string) =>
  applyDecorators(
    ApiPropertyOptional({ enum: [...fields.keys()], default: fallback, description: 'Field to sort by' }),
    IsOptional(),
    IsIn([...fields.keys()], { message: `sort must be one of: ${[...fields.keys()].join(', ')}` }),
  );

/**
 * `limit` (1-200, default 50), `offset` (≥ 0, default 0) and `order` (exactly asc or desc, default
 * desc). Each list adds its `sort` with `@SortBy(fields, fallback)`.
 */
export class PaginationQuery {
  @PageLimit()
  limit: number = 50;

  @PageOffset()
  offset: number = 0;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc' })
  @IsOptional()
  @IsIn(['asc', 'desc'], { message: 'order must be asc or desc' })
  order: 'asc' | 'desc' = 'desc';
}

export interface PageMeta {
  total: number;
  limit: number;
  offset: number;
  hasMore: boolean;
}

export interface Page<T> {
  data: T[];
  meta: PageMeta;
}

export function page<T>(data: T[], total: number, query: Pick<PaginationQuery, 'limit' | 'offset'>): Page<T> {
  return { data, meta: { total, limit: query.limit, offset: query.offset, hasMore: query.offset + data.length < total } };
}

/**
 * The SQL column for a requested sort field, from the list's fields; an unknown field is 400 naming
 * the fields that sort (`@SortBy` refuses it first; this holds for any caller).
 */
export function sortColumn(sort: string | undefined, fields: SortFields, fallback: string): string {
  const column = fields.get(sort ?? fallback);
  if (column === undefined) {
    throw ApiError.validation([{ field: 'sort', message: `sort must be one of: ${[...fields.keys()].join(', ')}` }]);
  }
  return column;
}
