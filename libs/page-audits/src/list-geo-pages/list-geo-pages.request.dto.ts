import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { BrandQuery, PageLimit, PageOffset, SortBy, sortFields } from '@libs/http';

/** Pages sort by their latest score (default), their URL, or when they were last audited. */
export const PAGE_SORTS = sortFields({ score: 'score', url: 'url', auditedAt: 'audited_at' });

export class ListGeoPagesQuery extends BrandQuery {
  @PageLimit()
  limit: number = 50;

  @PageOffset()
  offset: number = 0;

  @SortBy(PAGE_SORTS, 'score')
  sort?: string;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc' })
  @IsOptional()
  @IsIn(['asc', 'desc'], { message: 'order must be asc or desc' })
  order: 'asc' | 'desc' = 'desc';
}
