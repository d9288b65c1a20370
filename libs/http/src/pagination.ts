import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { ApiError } from './api-error';
import { queryInteger } from './params';

/** The page size of every list: `limit`, 1-200 (the property's initialiser gives the default, 50). */
export const PageLimit = () =>
  applyDecorators(
    ApiPropertyOptional({ minimum: 1, maximum: 200, default: 50, description: 'Page size' }),
    IsOptional(),
    Transform(queryInteger),
    IsInt({ message: 'limit must be an integer from 1 to 200' }),
    Min(1, { message: 'limit must be an integer from 1 to 200' }),
    Max(200, { message: 'limit must be an integer from 1 to 200' }),
  );

/** The rows a page skips: `offset`, ≥ 0 (the property's initialiser gives the default, 0). */
export const PageOffset = () =>
  applyDecorators(
    ApiPropertyOptional({ minimum: 0, default: 0, description: 'Rows to skip' }),
    IsOptional(),
    Transform(queryInteger),
    IsInt({ message: 'offset must be a non-negative integer' }),
    Min(0, { message: 'offset must be a non-negative integer' }),
    Max(1_000_000_000, { message: 'offset must be at most 1000000000' }),
  );

/** `limit` (1-200, default 50), `offset` (≥ 0, default 0), `sort` (a field), `order` (asc | desc, default desc). */
export class PaginationQuery {
  @PageLimit()
  limit: number = 50;

  @PageOffset()
  offset: number = 0;

  @ApiPropertyOptional({ description: 'Field to sort by (each list says which fields sort)' })
  @IsOptional()
  @IsString()
  sort?: string;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc' })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.toLowerCase() : value))
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
 * The SQL column for a requested sort field, from the list's allowed fields; an unknown field is
 * 400 naming the fields that sort.
 */
export function sortColumn(sort: string | undefined, allowed: Record<string, string>, fallback: string): string {
  if (sort === undefined) return allowed[fallback];
  const column = allowed[sort];
  if (!column) {
    throw ApiError.validation([{ field: 'sort', message: `sort must be one of: ${Object.keys(allowed).join(', ')}` }]);
  }
  return column;
}
