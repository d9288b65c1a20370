import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@libs/config';
import { CHANNELS_CONFIG, type ChannelsConfig } from '../channels.config';
import type { ChannelKind } from '../domain';
import { AiReferralsSource } from './connectors/ai-referrals-source';
import type { ChannelSource } from './connectors/channel-source';
import { Ga4Source } from './connectors/ga4-source';
import { SearchConsoleSource } from './connectors/search-console-source';

/** The connector of each syncing kind, pointed at the configured addresses. */
@Injectable()
export class ChannelSources {
  private readonly sources: Partial<Record<ChannelKind, ChannelSource>>;

  constructor(@InjectConfig(CHANNELS_CONFIG) config: ChannelsConfig, dataSource: DataSource) {
    const common = { tokenUrl: config.tokenUrl, pageSize: config.pageSize, timeoutMs: config.timeoutMs };
    this.sources = {
      ga4: new Ga4Source({ url: config.ga4Url, ...common }),
      search_console: new SearchConsoleSource({ url: config.searchConsoleUrl, ...common }),
      ai_referrals: new AiReferralsSource(dataSource),
    };
  }

  of(kind: ChannelKind): ChannelSource | null {
    return this.sources[kind] ?? null;
  }
}
