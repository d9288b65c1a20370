import { Injectable } from '@nestjs/common';
import { InjectConfig } from '@libs/config';
import { AGENT_ANALYTICS_CONFIG, type AgentAnalyticsConfig } from '../agent-analytics.config';
import { botCatalogue } from '../domain/bot-catalogue';
import { prefixesOfPublishedRanges } from '../domain/ip-ranges';
import { BotRanges } from '../shared/bot-ranges';

export interface RefreshResult {
  botId: string;
  url: string;
  prefixes?: number;
  error?: string;
}

/**
 * `bots refresh`: downloads the published IP ranges of every catalogue agent that has them (the
 * operator's address, or `<AGENT_RANGES_BASE_URL>/<bot id>.json`) and stores them over the
 * snapshot's. A source that fails keeps what was there.
 */
@Injectable()
export class BotRangesRefresher {
  constructor(
    private readonly ranges: BotRanges,
    @InjectConfig(AGENT_ANALYTICS_CONFIG) private readonly config: AgentAnalyticsConfig,
  ) {}

  async refresh(): Promise<RefreshResult[]> {
    const results: RefreshResult[] = [];
    const fetched = new Map<string, Promise<string[]>>();
    for (const bot of botCatalogue()) {
      if (!bot.verification.rangesUrl) continue;
      const url = this.config.rangesBaseUrl ? `${this.config.rangesBaseUrl.replace(/\/$/, '')}/${bot.id}.json` : bot.verification.rangesUrl;
      let download = fetched.get(url);
      if (!download) fetched.set(url, (download = this.download(url)));
      try {
        const prefixes = await download;
        await this.ranges.store(bot.id, url, prefixes);
        results.push({ botId: bot.id, url, prefixes: prefixes.length });
      } catch (error) {
        results.push({ botId: bot.id, url, error: (error as Error).message });
      }
    }
    return results;
  }

  private async download(url: string): Promise<string[]> {
    const res = await fetch(url, { signal: AbortSignal.timeout(15_000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const prefixes = prefixesOfPublishedRanges(await res.json());
    if (prefixes.length === 0) throw new Error('no prefixes in the document');
    return prefixes;
  }
}
