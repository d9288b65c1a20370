import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ChannelWindows, ChannelWindowSums } from '../domain';

interface Row {
  channel: string;
  side: 'before' | 'after';
  rows: number;
  ai_sessions: string | null;
  conversions: string | null;
  revenue: string | null;
}

const num = (v: string | null) => (v === null ? null : Number(v));

/** The channels' daily rows of a brand (`channel_metrics_daily`, libs/channels), summed per channel kind in an outcome's two windows (read apart: they may overlap when a fix was quick). */
@Injectable()
export class ChannelOutcomeReads {
  constructor(private readonly dataSource: DataSource) {}

  async sums(organizationId: number, brandId: number, w: ChannelWindows): Promise<ChannelWindowSums[]> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT channel, w.side, count(*)::int AS rows,
              sum(ai_sessions)::text AS ai_sessions, sum(conversions)::text AS conversions, sum(revenue)::text AS revenue
         FROM (VALUES ('before', $3::date, $4::date), ('after', $5::date, $6::date)) AS w(side, from_day, to_day)
         JOIN channel_metrics_daily m ON m.organization_id = $1 AND m.brand_id = $2 AND m.day BETWEEN w.from_day AND w.to_day
        GROUP BY 1, 2 ORDER BY 1, 2`,
      [organizationId, brandId, w.before.from, w.before.to, w.after.from, w.after.to],
    );
    return rows.map((r) => ({ channel: r.channel, window: r.side, rows: r.rows, aiSessions: num(r.ai_sessions), conversions: num(r.conversions), revenue: num(r.revenue) }));
  }
}
