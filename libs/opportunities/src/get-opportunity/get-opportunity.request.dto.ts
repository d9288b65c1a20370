import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional } from 'class-validator';

export class GetOpportunityQuery {
  @ApiPropertyOptional({ format: 'date-time', description: 'Answer what the opportunity looked like at this time (folds its events up to then)' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'asOf must be an ISO 8601 date or date-time' })
  asOf?: string;
}
