import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { PageOf, SortBy, sortFields } from '@libs/http';
import { ChannelRows, ChannelRowsQuery } from '../channel-rows.query';
import { DailyRowDto, Figure as n } from '../daily-row.dto';
import type { RowTable } from '../read-model/row-reads';
import { AUDIENCE_EXAMPLE, page as examplePage } from '../shared/examples';


/** An audience's day on a channel (GA4 audiences). */
export class AudienceRowDto extends DailyRowDto {
  @ApiProperty({ example: 'Purchasers' }) audience!: string;
  @n('Sessions') sessions!: number | null;
  @n('Users') users!: number | null;
  @n('New users') newUsers!: number | null;
  @n('Conversions (key events)') conversions!: number | null;
  @n('Revenue') revenue!: number | null;
}
export class AudiencePage extends PageOf(AudienceRowDto) {}

const TABLE: RowTable = {
  table: 'channel_audiences_daily',
  fields: { audience: 'audience', sessions: 'sessions', users: 'users', newUsers: 'new_users', conversions: 'conversions', revenue: 'revenue' },
  numeric: ['sessions', 'users', 'newUsers', 'conversions', 'revenue'],
  tiebreak: 'audience',
};
const SORTS = sortFields({ date: 'day', audience: 'audience', sessions: 'sessions', users: 'users', conversions: 'conversions', revenue: 'revenue' });

export class ListAudienceQuery extends ChannelRowsQuery {
  @SortBy(SORTS, 'date')
  sort?: string;
}

@ApiTags('Channels')
@Controller('api/v1/audiences')
export class ListAudienceController {
  constructor(private readonly rows: ChannelRows) {}

  @Get()
  @RequireScope('read:metrics')
  @ApiOperation({ operationId: 'audiences_list', summary: 'Daily audience rows of the connected channels (GA4 audiences) with sessions, users, new users, conversions and revenue' })
  @ApiOkResponse({ type: AudiencePage, example: examplePage(AUDIENCE_EXAMPLE) })
  @ApiNotFoundResponse({ description: 'No client or brand the caller may see has this id' })
  async list(@CurrentPrincipal() p: Principal, @Query() q: ListAudienceQuery): Promise<AudiencePage> {
    return this.rows.list<AudienceRowDto>(p, q, TABLE, SORTS);
  }
}
