import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { channelWindowFacts, type ChannelWindowFactRow } from '@libs/channels';
import type { ChannelWindows, ChannelWindowSums } from '../domain';

const num = (v: string | null) => (v === null ? null : Number(v));

/** The channels' daily rows of a brand (their `channelWindowFacts`), summed per channel kind in an outcome's two windows (read apart: they may overlap when a fix was quick). */
@Injectable()
export class ChannelOutcomeReads {
  constructor(private readonly dataSource: DataSource) {}

  async sums(organizationId: number, brandId: number, w: ChannelWindows): Promise<ChannelWindowSums[]> {
    const facts = channelWindowFacts(organizationId, brandId, w.before, w.after);
    const rows: ChannelWindowFactRow[] = await this.dataSource.query(facts.text, facts.params);
    return rows.map((r) => ({ channel: r.channel, window: r.side, rows: r.rows, aiSessions: num(r.ai_sessions), conversions: num(r.conversions), revenue: num(r.revenue) }));
  }
}
