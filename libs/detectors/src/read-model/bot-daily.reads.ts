import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { BotDailyRow } from '../domain';

export interface BrandBotRows {
  organizationId: number;
  brandId: number;
  rows: BotDailyRow[];
}

/**
 * Agent analytics' daily bot rollup (`agent_bot_daily`, libs/agent-analytics) of the last `days`
 * days (today included), per brand: visits and visits answered 4xx/5xx per host, day and agent.
 * Spoofed visits (a user agent claiming a bot from outside its operator's ranges) are left out: a
 * site refusing impostors is not blocking the engine.
 */
@Injectable()
export class BotDailyReads {
  constructor(private readonly dataSource: DataSource) {}

  async recent(days: number): Promise<BrandBotRows[]> {
    const rows: { organization_id: string; brand_id: string; day: string; host: string; bot_name: string; category: string; visits: string; error_visits: string }[] = await this.dataSource.query(
      `SELECT organization_id, brand_id, to_char(day, 'YYYY-MM-DD') AS day, host, bot_name, min(category) AS category,
              sum(visits)::text AS visits, sum(error_visits)::text AS error_visits
         FROM agent_bot_daily
        WHERE day > (now() AT TIME ZONE 'UTC')::date - $1::int AND verification <> 'spoofed'
        GROUP BY organization_id, brand_id, day, host, bot_name
        ORDER BY organization_id, brand_id`,
      [days],
    );
    const out = new Map<string, BrandBotRows>();
    for (const r of rows) {
      const key = `${r.organization_id}:${r.brand_id}`;
      const b = out.get(key) ?? { organizationId: Number(r.organization_id), brandId: Number(r.brand_id), rows: [] };
      b.rows.push({ day: r.day, host: r.host, botName: r.bot_name, category: r.category, visits: Number(r.visits), errorVisits: Number(r.error_visits) });
      out.set(key, b);
    }
    return [...out.values()];
  }
}
