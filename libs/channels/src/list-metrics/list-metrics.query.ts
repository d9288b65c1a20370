import { Injectable } from '@nestjs/common';
import { type Principal } from '@libs/auth';
import { ChannelRows } from '../channel-rows.query';
import type { RowTable } from '../read-model/row-reads';
import { MetricRowDto, MetricPage } from './list-metrics.response.dto';
import { ListMetricsQuery, METRIC_SORTS } from './list-metrics.request.dto';

export const METRICS_TABLE: RowTable = {
  table: 'channel_metrics_daily',
  fields: { sessions: 'sessions', users: 'users', newUsers: 'new_users', pageviews: 'pageviews', conversions: 'conversions', revenue: 'revenue', impressions: 'impressions', clicks: 'clicks', aiSessions: 'ai_sessions' },
  numeric: ['sessions', 'users', 'newUsers', 'pageviews', 'conversions', 'revenue', 'impressions', 'clicks', 'aiSessions'],
  tiebreak: '',
};

/** The read behind `GET /api/v1/metrics`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class ListMetrics {
  constructor(private readonly rows: ChannelRows) {}

  async read(p: Principal, q: ListMetricsQuery): Promise<MetricPage> {
    return this.rows.list<MetricRowDto>(p, q, METRICS_TABLE, METRIC_SORTS);
  }
}
