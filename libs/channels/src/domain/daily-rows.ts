import type { ChannelKind } from './channel-kinds';

/** The figures of a daily metric row (DESIGN §13.3); null where the channel has no such figure. */
export interface MetricFigures {
  sessions: number | null;
  users: number | null;
  newUsers: number | null;
  pageviews: number | null;
  conversions: number | null;
  revenue: number | null;
  impressions: number | null;
  clicks: number | null;
  aiSessions: number | null;
}

export const METRIC_FIELDS = ['sessions', 'users', 'newUsers', 'pageviews', 'conversions', 'revenue', 'impressions', 'clicks', 'aiSessions'] as const satisfies readonly (keyof MetricFigures)[];

/** Where a row comes from before it is mapped to a brand: the brand's domain, or the channel's brand. */
export interface BrandHint {
  /** A host or URL the row is about (a Search Console page, an import's domain column). */
  domain?: string | null;
  brandId?: number | null;
}

export interface MetricRow extends MetricFigures, BrandHint {
  date: string;
}

export interface CampaignRow extends BrandHint {
  date: string;
  campaign: string;
  source: string;
  medium: string;
  sessions: number | null;
  users: number | null;
  conversions: number | null;
  revenue: number | null;
}

export interface ContentRow extends BrandHint {
  date: string;
  page: string;
  /** The search query (Search Console); '' for a landing page of an analytics source. */
  query: string;
  sessions: number | null;
  pageviews: number | null;
  conversions: number | null;
  revenue: number | null;
  clicks: number | null;
  impressions: number | null;
  position: number | null;
}

export interface AudienceRow extends BrandHint {
  date: string;
  audience: string;
  sessions: number | null;
  users: number | null;
  newUsers: number | null;
  conversions: number | null;
  revenue: number | null;
}

/** What a connector brings back for a window of days. */
export interface ChannelData {
  metrics: MetricRow[];
  campaigns: CampaignRow[];
  content: ContentRow[];
  audiences: AudienceRow[];
}

export function emptyData(): ChannelData {
  return { metrics: [], campaigns: [], content: [], audiences: [] };
}

export function emptyFigures(): MetricFigures {
  return { sessions: null, users: null, newUsers: null, pageviews: null, conversions: null, revenue: null, impressions: null, clicks: null, aiSessions: null };
}

/** The rows of a kind: which figures it has (for documentation; the rest are null). */
export const FIGURES_OF: Readonly<Record<ChannelKind, readonly (keyof MetricFigures)[]>> = {
  ga4: ['sessions', 'users', 'newUsers', 'pageviews', 'conversions', 'revenue', 'aiSessions'],
  search_console: ['impressions', 'clicks'],
  import: METRIC_FIELDS,
  ai_referrals: ['sessions', 'aiSessions'],
};
