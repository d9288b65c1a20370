import { Injectable } from '@nestjs/common';
import { type Principal } from '@libs/auth';
import { ChannelRows } from '../channel-rows.query';
import type { RowTable } from '../read-model/row-reads';
import { AudienceRowDto, AudiencePage } from './list-audiences.response.dto';
import { ListAudienceQuery, SORTS } from './list-audiences.request.dto';

const TABLE: RowTable = {
  table: 'channel_audiences_daily',
  fields: { audience: 'audience', sessions: 'sessions', users: 'users', newUsers: 'new_users', conversions: 'conversions', revenue: 'revenue' },
  numeric: ['sessions', 'users', 'newUsers', 'conversions', 'revenue'],
  tiebreak: 'audience',
};

/** The read behind `GET /api/v1/audiences`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class ListAudiences {
  constructor(private readonly rows: ChannelRows) {}

  async read(p: Principal, q: ListAudienceQuery): Promise<AudiencePage> {
    return this.rows.list<AudienceRowDto>(p, q, TABLE, SORTS);
  }
}
