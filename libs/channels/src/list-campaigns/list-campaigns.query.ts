import { Injectable } from '@nestjs/common';
import { type Principal } from '@libs/auth';
import { ChannelRows } from '../channel-rows.query';
import type { RowTable } from '../read-model/row-reads';
import { CampaignRowDto, CampaignPage } from './list-campaigns.response.dto';
import { ListCampaignQuery, SORTS } from './list-campaigns.request.dto';

const TABLE: RowTable = {
  table: 'channel_campaigns_daily',
  fields: { campaign: 'campaign', source: 'source', medium: 'medium', sessions: 'sessions', users: 'users', conversions: 'conversions', revenue: 'revenue' },
  numeric: ['sessions', 'users', 'conversions', 'revenue'],
  tiebreak: 'campaign, source, medium',
};

/** The read behind `GET /api/v1/campaigns`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class ListCampaigns {
  constructor(private readonly rows: ChannelRows) {}

  async read(p: Principal, q: ListCampaignQuery): Promise<CampaignPage> {
    return this.rows.list<CampaignRowDto>(p, q, TABLE, SORTS);
  }
}
