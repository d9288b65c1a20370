import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional } from 'class-validator';
import { BrandPeriodPageQuery, commaList, SortBy, sortFields } from '@libs/http';
import { CHANGE_TYPES, SEVERITIES, type ChangeType, type Severity } from '../domain';

export const CHANGE_SORTS = sortFields({ detectedAt: 'asked_at', severity: 'severity_rank', changeType: 'change_type', provider: 'provider' });

export class ListChangesQuery extends BrandPeriodPageQuery {
  @ApiPropertyOptional({ description: `Comma-separated change types: ${CHANGE_TYPES.join(', ')}`, example: 'mention_lost,dropped_from_top3' })
  @IsOptional()
  @Transform(commaList)
  @IsIn(CHANGE_TYPES, { each: true, message: `changeType must be a comma-separated list of: ${CHANGE_TYPES.join(', ')}` })
  changeType?: ChangeType[];

  @ApiPropertyOptional({ description: `Comma-separated severities: ${SEVERITIES.join(', ')}`, example: 'high' })
  @IsOptional()
  @Transform(commaList)
  @IsIn(SEVERITIES, { each: true, message: `severity must be a comma-separated list of: ${SEVERITIES.join(', ')}` })
  severity?: Severity[];

  @SortBy(CHANGE_SORTS, 'detectedAt')
  sort?: string;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc' })
  @IsOptional()
  @IsIn(['asc', 'desc'], { message: 'order must be asc or desc' })
  order: 'asc' | 'desc' = 'desc';
}
