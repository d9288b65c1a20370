import { ApiProperty } from '@nestjs/swagger';

export class CategoryCountsDto {
  @ApiProperty({ type: 'integer' }) training!: number;
  @ApiProperty({ type: 'integer' }) search!: number;
  @ApiProperty({ type: 'integer', name: 'user-triggered' }) 'user-triggered'!: number;
  @ApiProperty({ type: 'integer' }) agent!: number;
}

export class TrendDayDto {
  @ApiProperty({ type: 'string', format: 'date', example: '2026-11-24' }) date!: string;
  @ApiProperty({ type: 'integer', description: 'Visits of AI agents that day (UTC)', example: 57 }) visits!: number;
  @ApiProperty({ type: CategoryCountsDto }) byCategory!: CategoryCountsDto;
  @ApiProperty({ type: 'integer', example: 50 }) verified!: number;
  @ApiProperty({ type: 'integer', description: 'Spoofed and unverifiable visits', example: 7 }) unverified!: number;
  @ApiProperty({ type: 'integer', example: 2 }) spoofed!: number;
}

export class AgentTrendsDto {
  @ApiProperty({ type: 'string', format: 'date' }) startDate!: string;
  @ApiProperty({ type: 'string', format: 'date' }) endDate!: string;
  @ApiProperty({ type: [TrendDayDto], description: 'Every day of the period, oldest first (a day without visits counts 0)' }) days!: TrendDayDto[];
}

export class AgentTrendsResponse {
  @ApiProperty({ type: AgentTrendsDto }) data!: AgentTrendsDto;
}
