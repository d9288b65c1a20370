import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@libs/config';
import { AGENT_ANALYTICS_CONFIG, type AgentAnalyticsConfig } from '../agent-analytics.config';
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

/** The published ranges as one prefix table, and the bots that have ranges. */
export interface RangeTable {
  table: PrefixTable<string>;
  bots: Set<string>;
  /** When it was loaded (ms). */
  at: number;
}

/**
 * The published IP ranges of the agents: the snapshot, replaced per bot by what `bots refresh`
 * stored in `agent_bot_ranges`. Loaded once, as one prefix table; once older than
 * AGENT_RANGES_RELOAD_MS it is reloaded by one query (single flight) while the old table goes on
 * serving, so however many visits ask at that moment, they cost one query and wait for none.
 */
@Injectable()
export class BotRanges {
  private readonly logger = new Logger('BotRanges');
  private loaded: RangeTable | null = null;
  private loading: Promise<RangeTable> | null = null;

  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig(AGENT_ANALYTICS_CONFIG) private readonly config: AgentAnalyticsConfig,
  ) {}

  async sources(): Promise<RangeSource[]> {
    const stored: { bot_id: string; source_url: string; prefixes: string[]; fetched_at: Date }[] = await this.dataSource.query(
      `SELECT bot_id, source_url, prefixes, fetched_at FROM agent_bot_ranges`,
    );
    const byBot = new Map(snapshotRanges().map((s) => [s.botId, s]));
    for (const r of stored) byBot.set(r.bot_id, { botId: r.bot_id, url: r.source_url, prefixes: r.prefixes, fetchedAt: r.fetched_at.toISOString(), origin: 'refresh' });
    return [...byBot.values()];
  }

  /** The prefix table and the bots that have ranges: the one held, or (the first time) the one loading. */
  current(): Promise<RangeTable> {
    const held = this.loaded;
    if (held && Date.now() - held.at <= this.config.rangesReloadMs) return Promise.resolve(held);
    const reload = this.reload();
    if (!held) return reload;
    reload.catch((error: Error) => this.logger.warn(`reloading the published ranges failed (the old ones serve): ${error.message}`));
    return Promise.resolve(held);
  }

  /** Stores a bot's freshly downloaded ranges (they replace the snapshot's). */
  async store(botId: string, url: string, prefixes: string[]): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO agent_bot_ranges (bot_id, source_url, prefixes, fetched_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (bot_id) DO UPDATE SET source_url = excluded.source_url, prefixes = excluded.prefixes, fetched_at = excluded.fetched_at`,
      [botId, url, prefixes],
    );
    this.loaded = null;
  }

  private reload(): Promise<RangeTable> {
    this.loading ??= this.sources()
      .then((sources) => {
        const loaded = {
          table: new PrefixTable(sources.flatMap((s) => s.prefixes.map((cidr) => ({ cidr, owner: s.botId })))),
          bots: new Set(sources.filter((s) => s.prefixes.length > 0).map((s) => s.botId)),
          at: Date.now(),
        };
        this.loaded = loaded;
        return loaded;
      })
      .finally(() => (this.loading = null));
    return this.loading;
  }
}
