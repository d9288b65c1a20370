import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { InjectConfig } from '@libs/config';
import { GuardedFetcher, type FetchResult } from '@libs/egress';
import { AGENT_ANALYTICS_CONFIG, type AgentAnalyticsConfig } from '../agent-analytics.config';

/** The user agent of agent analytics' own requests (robots.txt of registered sites, key directories). */
export const AGENT_ANALYTICS_USER_AGENT = 'AIVisibilityAgentAnalytics/1.0 (+agent analytics of the AI visibility service)';

/**
 * How agent analytics reaches other sites: through the egress guard (libs/egress), as page audits
 * and webhooks do. A registered site's host is the customer's to choose, so its robots.txt URL may
 * name any address; private, loopback, link-local and metadata addresses are refused (checked
 * again at connect time), except the ranges AGENT_ALLOWED_ADDRESSES lets through.
 */
@Injectable()
export class AgentEgress implements OnModuleDestroy {
  private readonly fetcher: GuardedFetcher;

  constructor(@InjectConfig(AGENT_ANALYTICS_CONFIG) config: AgentAnalyticsConfig) {
    this.fetcher = new GuardedFetcher({ userAgent: AGENT_ANALYTICS_USER_AGENT, allow: config.allowed });
  }

  get(url: string, opts: { maxBytes: number; timeoutMs: number; maxRedirects?: number; accept?: string; overflow?: 'fail' | 'truncate' }): Promise<FetchResult> {
    return this.fetcher.get({ url, maxBytes: opts.maxBytes, timeoutMs: opts.timeoutMs, maxRedirects: opts.maxRedirects, overflow: opts.overflow, headers: opts.accept ? { accept: opts.accept } : undefined });
  }

  onModuleDestroy(): void {
    this.fetcher.close();
  }
}
