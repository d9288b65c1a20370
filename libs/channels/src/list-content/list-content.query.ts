import { Injectable } from '@nestjs/common';
import { type Principal } from '@libs/auth';
import { ChannelRows } from '../channel-rows.query';
import type { RowTable } from '../read-model/row-reads';
import { ContentRowDto, ContentPage } from './list-content.response.dto';
import { ListContentQuery, SORTS } from './list-content.request.dto';

const TABLE: RowTable = {
  table: 'channel_content_daily',
  fields: { page: 'page', query: "nullif(query, '')", sessions: 'sessions', pageviews: 'pageviews', conversions: 'conversions', revenue: 'revenue', clicks: 'clicks', impressions: 'impressions', position: 'position' },
  numeric: ['sessions', 'pageviews', 'conversions', 'revenue', 'clicks', 'impressions', 'position'],
  tiebreak: 'page, query',
};

/** The read behind `GET /api/v1/content`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class ListContent {
  constructor(private readonly rows: ChannelRows) {}

  async read(p: Principal, q: ListContentQuery): Promise<ContentPage> {
    return this.rows.list<ContentRowDto>(p, q, TABLE, SORTS);
  }
}
