import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PrefixTable } from '../domain/ip-ranges';
import snapshot from './ip-ranges.snapshot.json';

export interface RangeSource {
  botId: string;
  url: string;
  prefixes: string[];
  fetchedAt: string;
  origin: 'snapshot' | 'refresh';
}

/** The shipped snapshot of published ranges (shared/ip-ranges.snapshot.json). */
export function snapshotRanges(): RangeSource[] {
  return Object.entries(snapshot.bots as Record<string, { url: string; prefixes: string[] }>).map(([botId, b]) => ({ botId, url: b.url, prefixes: b.prefixes, fetchedAt: snapshot.fetchedAt, origin: 'snapshot' as const }));
}

/**
 * The published IP ranges of the agents: the snapshot, replaced per bot by what `bots refresh`
 * stored in `agent_bot_ranges`. Loaded once and reloaded at most every minute, as one prefix table.
 */
@Injectable()
export class BotRanges {
  private table: Promise<{ table: PrefixTable<string>; bots: Set<string>; at: number }> | null = null;

  constructor(private readonly dataSource: DataSource) {}

  async sources(): Promise<RangeSource[]> {
    const stored: { bot_id: string; source_url: string; prefixes: string[]; fetched_at: Date }[] = await this.dataSource.query(
      `SELECT bot_id, source_url, prefixes, fetched_at FROM agent_bot_ranges`,
    );
    const byBot = new Map(snapshotRanges().map((s) => [s.botId, s]));
    for (const r of stored) byBot.set(r.bot_id, { botId: r.bot_id, url: r.source_url, prefixes: r.prefixes, fetchedAt: r.fetched_at.toISOString(), origin: 'refresh' });
    return [...byBot.values()];
  }

  /** The prefix table and the bots that have ranges. */
  async current(): Promise<{ table: PrefixTable<string>; bots: Set<string> }> {
    const loaded = this.table ? await this.table : null;
    if (!loaded || Date.now() - loaded.at > 60_000) {
      this.table = this.sources().then((sources) => ({
        table: new PrefixTable(sources.flatMap((s) => s.prefixes.map((cidr) => ({ cidr, owner: s.botId })))),
        bots: new Set(sources.filter((s) => s.prefixes.length > 0).map((s) => s.botId)),
        at: Date.now(),
      }));
      this.table.catch(() => (this.table = null));
      return this.table;
    }
    return loaded;
  }

  /** Stores a bot's freshly downloaded ranges (they replace the snapshot's). */
  async store(botId: string, url: string, prefixes: string[]): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO agent_bot_ranges (bot_id, source_url, prefixes, fetched_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (bot_id) DO UPDATE SET source_url = excluded.source_url, prefixes = excluded.prefixes, fetched_at = excluded.fetched_at`,
      [botId, url, prefixes],
    );
    this.table = null;
  }
}
