import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { BrandFilterQuery } from '../shared/brand-filter.query';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { PaginationQuery, SortBy, commaList, queryBoolean, sortFields } from '@libs/http';
import { SEVERITIES, STATUSES, TYPES, type OpportunityType, type Severity, type Status } from '../domain';

export const OPPORTUNITY_SORTS = sortFields({
  detectedAt: 'detected_at',
  updatedAt: 'updated_at',
  dueAt: 'due_at',
  severity: 'severity_rank',
  status: 'status',
  type: 'type',
  id: 'id',
});

export class ListOpportunitiesQuery extends IntersectionType(PaginationQuery, BrandFilterQuery) {
  @ApiPropertyOptional({ description: `Comma-separated types: ${TYPES.join(', ')}`, example: 'sov_drop,competitor_gap' })
  @IsOptional()
  @Transform(commaList)
  @IsIn(TYPES, { each: true, message: `type must be a comma-separated list of: ${TYPES.join(', ')}` })
  type?: OpportunityType[];

  @ApiPropertyOptional({ description: `Comma-separated states: ${STATUSES.join(', ')}`, example: 'detected,triaged' })
  @IsOptional()
  @Transform(commaList)
  @IsIn(STATUSES, { each: true, message: `status must be a comma-separated list of: ${STATUSES.join(', ')}` })
  status?: Status[];

  @ApiPropertyOptional({ description: `Comma-separated severities: ${SEVERITIES.join(', ')}`, example: 'high,critical' })
  @IsOptional()
  @Transform(commaList)
  @IsIn(SEVERITIES, { each: true, message: `severity must be a comma-separated list of: ${SEVERITIES.join(', ')}` })
  severity?: Severity[];

  @ApiPropertyOptional({ description: 'Also list resolved and dismissed opportunities (default false; an explicit status list is honoured as given)' })
  @IsOptional()
  @Transform(queryBoolean)
  @IsBoolean({ message: 'includeTerminal must be true or false' })
  includeTerminal?: boolean;

  @SortBy(OPPORTUNITY_SORTS, 'detectedAt')
  sort?: string;
}
