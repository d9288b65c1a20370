import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandPeriodPageQuery, page, PageOf, PROVIDERS } from '@libs/http';
import { EntityDto, SovEntryDto } from '../read-model/figure.dto';
import { groupSums, sumsOf } from '../read-model/group-sums';
import { RollupReads } from '../read-model/rollup-reads';
import { sovEntries } from '../read-model/sov-entries';
import { VisibilityScope } from '../visibility-scope';
import { SHARE_OF_VOICE_EXAMPLE } from './share-of-voice.example';

export class QuerySovDto {
  @ApiProperty({ enum: PROVIDERS }) provider!: string;
  @ApiProperty() query!: string;
  @ApiProperty({ type: EntityDto }) brand!: EntityDto;
  @ApiProperty({ type: 'integer', description: 'Answers of this provider to this query in the period' }) answers!: number;
  @ApiProperty({ type: [SovEntryDto], description: 'The brand and each competitor; shares add up to 1' }) entries!: SovEntryDto[];
}
export class SovPage extends PageOf(QuerySovDto) {}

@ApiTags('Visibility')
@Controller('api/v1/visibility')
export class ShareOfVoiceController {
  constructor(
    private readonly scopes: VisibilityScope,
    private readonly rollups: RollupReads,
  ) {}

  @Get('sov')
  @RequireScope('read:visibility')
  @ApiOperation({ operationId: 'visibility_sov', summary: 'Share of voice by provider and query over the period (paginated by provider, then query)' })
  @ApiOkResponse({ type: SovPage, example: SHARE_OF_VOICE_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  async sov(@CurrentPrincipal() p: Principal, @Query() q: BrandPeriodPageQuery): Promise<SovPage> {
    const scope = await this.scopes.resolve(p, q);
    const rows = await this.rollups.sums(scope.filter, ['provider', 'query']);
    const groups = [...groupSums(rows, (r) => JSON.stringify([r.provider, r.query]))].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const items = groups.slice(q.offset, q.offset + q.limit).map(([key, byEntity]) => {
      const [provider, query] = JSON.parse(key) as [string, string];
      return { provider, query, brand: VisibilityScope.entity(scope, scope.brandEntityId), answers: sumsOf(byEntity, scope.brandEntityId).answers, entries: sovEntries(scope, provider, byEntity) };
    });
    return page(items, groups.length, q);
  }
}
