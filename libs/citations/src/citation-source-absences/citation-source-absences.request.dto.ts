import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { queryInteger } from '@libs/http';
import { RangeQuery } from '../shared/range.query';

const message = 'minScore must be an integer from 0 to 100';

export class CitationSourceAbsencesQuery extends RangeQuery {
  @ApiPropertyOptional({ description: 'Absence scores below this are dropped (0-100)', type: 'integer', minimum: 0, maximum: 100, default: 50 })
  @IsOptional()
  @Transform(queryInteger)
  @IsInt({ message })
  @Min(0, { message })
  @Max(100, { message })
  minScore: number = 50;
}
