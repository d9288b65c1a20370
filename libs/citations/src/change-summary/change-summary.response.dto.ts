import { ApiProperty } from '@nestjs/swagger';
import { CHANGE_TYPES } from '../domain';

export class SeverityCountsDto {
  @ApiProperty({ type: 'integer' }) low!: number;
  @ApiProperty({ type: 'integer' }) medium!: number;
  @ApiProperty({ type: 'integer' }) high!: number;
}

export class ChangeTypeCountsDto extends SeverityCountsDto {
  @ApiProperty({ enum: CHANGE_TYPES }) changeType!: string;
  @ApiProperty({ type: 'integer' }) total!: number;
}

export class ChangeSummaryDto {
  @ApiProperty({ type: 'string', format: 'date' }) startDate!: string;
  @ApiProperty({ type: 'string', format: 'date' }) endDate!: string;
  @ApiProperty({ type: 'integer' }) total!: number;
  @ApiProperty({ type: SeverityCountsDto }) bySeverity!: SeverityCountsDto;
  @ApiProperty({ type: [ChangeTypeCountsDto], description: 'Every change type, with its counts by severity (0 when none)' }) byType!: ChangeTypeCountsDto[];
}

export class ChangeSummaryResponse {
  @ApiProperty({ type: ChangeSummaryDto }) data!: ChangeSummaryDto;
}
