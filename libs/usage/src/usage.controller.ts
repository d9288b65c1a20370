import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { ApiKeysRepository, CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ApiError, ParseIdPipe, queryInteger } from '@libs/http';
import { LATENCY_BOUNDS_MS } from './domain/latency-histogram';
import { UsageRepository, usageWindow } from './usage.repository';

const DAYS_MESSAGE = 'days must be an integer from 1 to 365';

class UsageQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 365, default: 30, description: 'How many UTC days, today included' })
  @IsOptional()
  @Transform(queryInteger)
  @IsInt({ message: DAYS_MESSAGE })
  @Min(1, { message: DAYS_MESSAGE })
  @Max(365, { message: DAYS_MESSAGE })
  days: number = 30;
}

class UsageTotals {
  @ApiProperty({ description: 'Authenticated requests (including those refused with 429)' }) requests!: number;
  @ApiProperty({ description: 'Requests answered with a 4xx or 5xx status' }) errors!: number;
}

class DailyUsage {
  @ApiProperty({ format: 'date', example: '2026-01-31' }) date!: string;
  @ApiProperty() requests!: number;
  @ApiProperty() errors!: number;
}

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

class UsageStatistics {
  @ApiProperty({ format: 'date', description: 'First UTC day of the window' }) from!: string;
  @ApiProperty({ format: 'date', description: 'Last UTC day of the window (today)' }) to!: string;
  @ApiProperty() days!: number;
  @ApiProperty({ type: UsageTotals }) totals!: UsageTotals;
  @ApiProperty({ type: [DailyUsage], description: 'One entry per day of the window, oldest first' }) daily!: DailyUsage[];
  @ApiProperty({ type: [EndpointUsageDto], description: 'Per route and method, busiest first' }) endpoints!: EndpointUsageDto[];
  @ApiProperty({ type: [CredentialUsageDto], description: 'Per API key or OAuth client, busiest first' }) credentials!: CredentialUsageDto[];
}

class UsageStatisticsResponse {
  @ApiProperty({ type: UsageStatistics }) data!: UsageStatistics;
}

class KeyUsage {
  @ApiProperty() keyId!: number;
  @ApiProperty({ format: 'date' }) from!: string;
  @ApiProperty({ format: 'date' }) to!: string;
  @ApiProperty() days!: number;
  @ApiProperty({ type: UsageTotals }) totals!: UsageTotals;
  @ApiProperty({ type: [DailyUsage] }) daily!: DailyUsage[];
}

class KeyUsageResponse {
  @ApiProperty({ type: KeyUsage }) data!: KeyUsage;
}

@ApiTags('Usage and key validation')
@Controller('api/v1/usage')
export class UsageController {
  constructor(
    private readonly usage: UsageRepository,
    private readonly keys: ApiKeysRepository,
  ) {}

  @Get()
  @RequireScope('read:usage')
  @ApiOperation({
    summary: "The organisation's API usage",
    description: 'Totals, a per-day series and a per-endpoint breakdown with error counts and latency percentiles, over the last `days` UTC days. Counters are written in batches, so the last second or so may not show yet.',
  })
  @ApiOkResponse({ type: UsageStatisticsResponse })
  @ApiBadRequestResponse({ description: 'days is not an integer from 1 to 365' })
  async statistics(@CurrentPrincipal() p: Principal, @Query() q: UsageQuery): Promise<UsageStatisticsResponse> {
    return { data: await this.usage.organizationUsage(p.organizationId, usageWindow(q.days)) };
  }

  @Get('keys/:keyId')
  @RequireScope('read:usage')
  @ApiOperation({ summary: 'Daily usage of one API key of the organisation' })
  @ApiOkResponse({ type: KeyUsageResponse })
  @ApiBadRequestResponse({ description: 'keyId is not a positive integer, or days is out of range' })
  @ApiNotFoundResponse({ description: 'No such key in this organisation' })
  async key(@CurrentPrincipal() p: Principal, @Param('keyId', ParseIdPipe) keyId: number, @Query() q: UsageQuery): Promise<KeyUsageResponse> {
    if (!(await this.keys.belongsTo(keyId, p.organizationId))) throw ApiError.notFound(`API key ${keyId}`);
    return { data: await this.usage.keyUsage(p.organizationId, keyId, usageWindow(q.days)) };
  }
}
