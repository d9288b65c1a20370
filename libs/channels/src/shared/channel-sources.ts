import { Injectable } from '@nestjs/common';
import { InjectConfig } from '@libs/config';
import { CHANNELS_CONFIG, type ChannelsConfig } from '../channels.config';
import type { ChannelKind } from '../domain';
import { emptyData } from '../domain';
import type { ChannelSource } from './connectors/channel-source';
import { Ga4Source } from './connectors/ga4-source';
import { SearchConsoleSource } from './connectors/search-console-source';

/**
 * The `ai_referrals` channel's source: the AI-referral visits of DESIGN §13.2 (agent analytics),
 * per day and brand. That table is not in this service yet, so it brings no rows; the channel,
 * its schedule and its cursor work as for any other source.
 */
const aiReferrals: ChannelSource = { fetch: () => Promise.resolve(emptyData()) };

/** The connector of each syncing kind, pointed at the configured addresses. */
@Injectable()
export class ChannelSources {
  private readonly sources: Partial<Record<ChannelKind, ChannelSource>>;

  constructor(@InjectConfig(CHANNELS_CONFIG) config: ChannelsConfig) {
    const common = { tokenUrl: config.tokenUrl, pageSize: config.pageSize, timeoutMs: config.timeoutMs };
    this.sources = {
      ga4: new Ga4Source({ url: config.ga4Url, ...common }),
      search_console: new SearchConsoleSource({ url: config.searchConsoleUrl, ...common }),
      ai_referrals: aiReferrals,
    };
  }

  of(kind: ChannelKind): ChannelSource | null {
    return this.sources[kind] ?? null;
  }
}
