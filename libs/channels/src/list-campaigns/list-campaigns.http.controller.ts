import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { PageOf, SortBy, sortFields } from '@libs/http';
import { ChannelRows, ChannelRowsQuery } from '../channel-rows.query';
import { DailyRowDto, Figure as n } from '../daily-row.dto';
import type { RowTable } from '../read-model/row-reads';
import { CAMPAIGN_EXAMPLE, page as examplePage } from '../shared/examples';


/** A campaign's day on a channel (GA4 session campaign, source and medium). */
export class CampaignRowDto extends DailyRowDto {
  @ApiProperty({ example: 'spring_sale' }) campaign!: string;
  @ApiProperty({ example: 'newsletter' }) source!: string;
  @ApiProperty({ example: 'email' }) medium!: string;
  @n('Sessions') sessions!: number | null;
  @n('Users') users!: number | null;
  @n('Conversions (key events)') conversions!: number | null;
  @n('Revenue') revenue!: number | null;
}
export class CampaignPage extends PageOf(CampaignRowDto) {}

const TABLE: RowTable = {
  table: 'channel_campaigns_daily',
  fields: { campaign: 'campaign', source: 'source', medium: 'medium', sessions: 'sessions', users: 'users', conversions: 'conversions', revenue: 'revenue' },
  numeric: ['sessions', 'users', 'conversions', 'revenue'],
  tiebreak: 'campaign, source, medium',
};
const SORTS = sortFields({ date: 'day', campaign: 'campaign', sessions: 'sessions', conversions: 'conversions', revenue: 'revenue' });

export class ListCampaignQuery extends ChannelRowsQuery {
  @SortBy(SORTS, 'date')
  sort?: string;
}

@ApiTags('Channels')
@Controller('api/v1/campaigns')
export class ListCampaignController {
  constructor(private readonly rows: ChannelRows) {}

  @Get()
  @RequireScope('read:metrics')
  @ApiOperation({ operationId: 'campaigns_list', summary: 'Daily campaign rows of the connected channels (campaign, source, medium) with sessions, users, conversions and revenue' })
  @ApiOkResponse({ type: CampaignPage, example: examplePage(CAMPAIGN_EXAMPLE) })
  @ApiNotFoundResponse({ description: 'No client or brand the caller may see has this id' })
  async list(@CurrentPrincipal() p: Principal, @Query() q: ListCampaignQuery): Promise<CampaignPage> {
    return this.rows.list<CampaignRowDto>(p, q, TABLE, SORTS);
  }
}
