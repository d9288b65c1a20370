import type { DataSource } from 'typeorm';
import { aiReferralFacts, type AiReferralFactRow } from '@libs/agent-analytics';
import { clientBrandDomainFacts, type BrandDomainsFactRow } from '@libs/tenancy';
import { emptyData, type ChannelData } from '../../domain';
import type { ChannelForSync } from '../../channels.repository';
import type { ChannelSource, DayWindow } from './channel-source';

/**
 * The built-in `ai_referrals` channel: human visits that arrived from AI assistants (DESIGN §13.2),
 * as agent analytics counts them per day, brand, host, assistant and page (its `aiReferralFacts`). Per day and brand: sessions and aiSessions (every
 * such visit is one); per assistant: a campaign row (`(ai referral)`, the assistant, `referral`);
 * per page: a content row.
 */
export class AiReferralsSource implements ChannelSource {
  constructor(private readonly dataSource: DataSource) {}

  async fetch(channel: ChannelForSync, _credentials: string | null, window: DayWindow): Promise<ChannelData> {
    const data = emptyData();
    // The client's brands (tenancy's), then their referral visits (agent analytics').
    const ofClient = clientBrandDomainFacts(channel.organizationId, channel.clientId);
    const brands: BrandDomainsFactRow[] = await this.dataSource.query(ofClient.text, ofClient.params);
    if (!brands.length) return data;
    const facts = aiReferralFacts(channel.organizationId, brands.map((b) => Number(b.id)), window.start, window.end);
    const rows: AiReferralFactRow[] = await this.dataSource.query(facts.text, facts.params);
    const metrics = new Map<string, number>();
    const campaigns = new Map<string, number>();
    const pages = new Map<string, number>();
    const add = (map: Map<string, number>, key: string, n: number) => map.set(key, (map.get(key) ?? 0) + n);
    for (const r of rows) {
      const visits = Number(r.visits);
      add(metrics, JSON.stringify([r.day, r.brand_id]), visits);
      add(campaigns, JSON.stringify([r.day, r.brand_id, r.source]), visits);
      add(pages, JSON.stringify([r.day, r.brand_id, `https://${r.host}${r.path}`]), visits);
    }
    for (const [key, n] of metrics) {
      const [date, brand] = JSON.parse(key) as [string, string];
      data.metrics.push({ date, brandId: Number(brand), sessions: n, users: null, newUsers: null, pageviews: null, conversions: null, revenue: null, impressions: null, clicks: null, aiSessions: n });
    }
    for (const [key, n] of campaigns) {
      const [date, brand, source] = JSON.parse(key) as [string, string, string];
      data.campaigns.push({ date, brandId: Number(brand), campaign: '(ai referral)', source, medium: 'referral', sessions: n, users: null, conversions: null, revenue: null });
    }
    for (const [key, n] of pages) {
      const [date, brand, page] = JSON.parse(key) as [string, string, string];
      data.content.push({ date, brandId: Number(brand), page, query: '', sessions: n, pageviews: null, conversions: null, revenue: null, clicks: null, impressions: null, position: null });
    }
    return data;
  }
}
