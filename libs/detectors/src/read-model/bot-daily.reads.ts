import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { botDailyFacts, type BotDailyFactRow } from '@libs/agent-analytics';
import type { BotDailyRow } from '../domain';

export interface BrandBotRows {
  organizationId: number;
  brandId: number;
  rows: BotDailyRow[];
}

/**
 * Agent analytics' daily bot rollup of the last `days` days (today included), per brand: visits
 * and visits answered 4xx/5xx per host, day and agent (its `botDailyFacts`, spoofed visits left out).
 */
@Injectable()
export class BotDailyReads {
  constructor(private readonly dataSource: DataSource) {}

  async recent(days: number): Promise<BrandBotRows[]> {
    const facts = botDailyFacts(days);
    const rows: BotDailyFactRow[] = await this.dataSource.query(facts.text, facts.params);
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
