import { ApiProperty } from '@nestjs/swagger';
import { CostWithJudgeDto } from '@libs/analysis';
import { LATENCY_BOUNDS_MS } from '../domain/latency-histogram';
import { DailyUsage, UsageTotals } from '../usage.dto';

class LatencyPercentiles {
  @ApiProperty({ type: Number, nullable: true, description: 'Median latency (ms), estimated from a fixed-bucket histogram' }) p50!: number | null;
  @ApiProperty({ type: Number, nullable: true }) p95!: number | null;
  @ApiProperty({ type: Number, nullable: true }) p99!: number | null;
}

class EndpointUsageDto {
  @ApiProperty({ example: 'GET' }) method!: string;
  @ApiProperty({ example: '/api/v1/brands/:id', description: 'Route template' }) route!: string;
  @ApiProperty() requests!: number;
  @ApiProperty() errors!: number;
  @ApiProperty({
    type: LatencyPercentiles,
    description: `Server-side latency percentiles in ms, interpolated within the histogram buckets (upper bounds ${LATENCY_BOUNDS_MS.join(', ')} ms)`,
  })
  latencyMs!: LatencyPercentiles;
}

class CredentialUsageDto {
  @ApiProperty({ example: 'key:12', description: '`key:<id>` for an API key, `oauth:<id>` for an OAuth client' }) subject!: string;
  @ApiProperty({ type: Number, nullable: true }) keyId!: number | null;
  @ApiProperty() requests!: number;
  @ApiProperty() errors!: number;
}

class DailyCostDto extends CostWithJudgeDto {
  @ApiProperty({ format: 'date' }) date!: string;
}

class UsageCostDto extends CostWithJudgeDto {
  @ApiProperty({ type: [DailyCostDto], description: 'One entry per day of the window, oldest first (0 on a day nothing was asked)' }) daily!: DailyCostDto[];
}

class UsageStatistics {
  @ApiProperty({ format: 'date', description: 'First UTC day of the window' }) from!: string;
  @ApiProperty({ format: 'date', description: 'Last UTC day of the window (today)' }) to!: string;
  @ApiProperty() days!: number;
  @ApiProperty({ type: UsageTotals }) totals!: UsageTotals;
  @ApiProperty({ type: [DailyUsage], description: 'One entry per day of the window, oldest first' }) daily!: DailyUsage[];
  @ApiProperty({ type: [EndpointUsageDto], description: 'Per route and method, busiest first' }) endpoints!: EndpointUsageDto[];
  @ApiProperty({ type: [CredentialUsageDto], description: 'Per API key or OAuth client, busiest first' }) credentials!: CredentialUsageDto[];
  @ApiProperty({ type: UsageCostDto, description: 'What the AI providers’ answers cost over the window: tokens and USD at the price table in force on each day' }) cost!: UsageCostDto;
}

export class UsageStatisticsResponse {
  @ApiProperty({ type: UsageStatistics }) data!: UsageStatistics;
}
