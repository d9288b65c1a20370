import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandQuery, PROVIDERS } from '@libs/http';
import { SovEntryDto } from '../read-model/figure.dto';
import { groupSums, sumsOf } from '../read-model/group-sums';
import { RollupReads } from '../read-model/rollup-reads';
import { sovEntries } from '../read-model/sov-entries';
import { VisibilityScope } from '../visibility-scope';
import { LATEST_SHARE_OF_VOICE_EXAMPLE } from './latest-share-of-voice.example';

export class ProviderSovDto {
  @ApiProperty({ enum: PROVIDERS }) provider!: string;
  @ApiProperty({ type: 'integer' }) answers!: number;
  @ApiProperty({ type: [SovEntryDto] }) entries!: SovEntryDto[];
}
export class LatestSovDto {
  @ApiProperty({ type: String, format: 'date', nullable: true, description: "The UTC day the brand's most recent complete run (completed, or partial with answers) started; null when none has ended yet" }) date!: string | null;
  @ApiProperty({ type: [ProviderSovDto] }) providers!: ProviderSovDto[];
}
export class LatestSovResponse {
  @ApiProperty({ type: LatestSovDto }) data!: LatestSovDto;
}

@ApiTags('Visibility')
@Controller('api/v1/visibility')
export class LatestShareOfVoiceController {
  constructor(
    private readonly scopes: VisibilityScope,
    private readonly rollups: RollupReads,
  ) {}

  @Get('sov/latest')
  @RequireScope('read:visibility')
  @ApiOperation({ operationId: 'visibility_sov_latest', summary: "Share of voice per provider on the day of the brand's most recent complete run, which it names (every answer of that UTC day counts)" })
  @ApiOkResponse({ type: LatestSovResponse, example: LATEST_SHARE_OF_VOICE_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  async latest(@CurrentPrincipal() p: Principal, @Query() q: BrandQuery): Promise<LatestSovResponse> {
    const scope = await this.scopes.resolve(p, q);
    const date = await this.rollups.latestCompleteRunDay(scope.brand.organizationId, scope.brand.id);
    if (date === null) return { data: { date: null, providers: [] } };
    const rows = await this.rollups.sums({ ...scope.filter, start: date, end: date }, ['provider']);
    const byProvider = groupSums(rows, (r) => r.provider!);
    return {
      data: {
        date,
        providers: PROVIDERS.filter((pr) => byProvider.has(pr)).map((provider) => ({ provider, answers: sumsOf(byProvider.get(provider), scope.brandEntityId).answers, entries: sovEntries(scope, provider, byProvider.get(provider)!) })),
      },
    };
  }
}
