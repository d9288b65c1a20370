import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';
import { PaginationQuery, queryBoolean, SortBy, sortFields } from '@libs/http';

export const PROMPT_SORTS = sortFields({ createdAt: 'id', id: 'id', query: 'lower(query)', updatedAt: 'updated_at' });

export class ListBrandPromptsQuery extends PaginationQuery {
  @SortBy(PROMPT_SORTS, 'createdAt')
  sort?: string;

  @ApiPropertyOptional({ type: Boolean, description: 'Only active (true) or inactive (false) prompts' })
  @IsOptional()
  @Transform(queryBoolean)
  @IsBoolean({ message: 'active must be true or false' })
  active?: boolean;
}
