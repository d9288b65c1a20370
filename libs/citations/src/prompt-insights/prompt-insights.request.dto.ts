import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { BrandPeriodPageQuery, SortBy, sortFields } from '@libs/http';

export const INSIGHT_SORTS = sortFields({ answers: 'answers', mentionRate: 'mentionRate', averagePosition: 'averagePosition', netSentiment: 'netSentiment', query: 'query' });

export class PromptInsightsQuery extends BrandPeriodPageQuery {
  @SortBy(INSIGHT_SORTS, 'answers')
  sort?: string;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc', description: 'Prompts without a figure (n: 0) come last either way' })
  @IsOptional()
  @IsIn(['asc', 'desc'], { message: 'order must be asc or desc' })
  order: 'asc' | 'desc' = 'desc';
}
