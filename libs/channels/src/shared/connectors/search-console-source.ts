import type { searchconsole_v1 } from '@googleapis/searchconsole';
import { emptyData, type ChannelData } from '../../domain';
import type { ChannelForSync } from '../../channels.repository';
import type { ChannelSource, DayWindow } from './channel-source';
import { serviceAccountClient, type ServiceAccountKey } from './service-account';
import { classifyGoogleError, SourceError, withRetries, type RetrySettings } from './source-errors';

/** The client library, loaded on the first sync (as GA4's is): other processes do not pay its memory. */
let clientLibrary: typeof import('@googleapis/searchconsole') | undefined;
const client = () => (clientLibrary ??= require('@googleapis/searchconsole') as typeof import('@googleapis/searchconsole')); // eslint-disable-line @typescript-eslint/no-require-imports

const SCOPE = 'https://www.googleapis.com/auth/webmasters.readonly';
/** Search Console answers at most 25,000 rows a request. */
const MAX_ROWS = 25_000;
export interface SearchConsoleSettings {
  /** The API's root URL, e.g. https://searchconsole.googleapis.com (a local fake in tests). */
  url: string;
  tokenUrl: string;
  pageSize: number;
  timeoutMs: number;
}

/** A failed call of the official client as a SourceError: 429, quota 403s, 5xx and network errors retry. */
export const classifySearchConsoleError = (error: unknown) => classifyGoogleError('Search Console API', error);

/**
 * Search Console through the official client (`@googleapis/searchconsole`, searchanalytics.query)
 * at the configured root URL, with a service-account key (an OAuth token from the token endpoint).
 * Daily totals by date, and clicks, impressions and position by page and query, paged with startRow.
 */
export class SearchConsoleSource implements ChannelSource {
  constructor(private readonly settings: SearchConsoleSettings) {}

  async fetch(channel: ChannelForSync, credentials: string | null, window: DayWindow, retry: RetrySettings): Promise<ChannelData> {
    if (!credentials || !channel.siteUrl) throw new SourceError('the channel has no site URL or credentials', false);
    const auth = serviceAccountClient(JSON.parse(credentials) as ServiceAccountKey, [SCOPE], this.settings.tokenUrl, this.settings.timeoutMs);
    const api = client().searchconsole({ version: 'v1', auth: auth as never, rootUrl: `${this.settings.url}/`, timeout: this.settings.timeoutMs, retry: false });
    const query = (dimensions: string[]) => this.rows(api, channel.siteUrl!, dimensions, window, retry);
    const data = emptyData();
    for (const r of await query(['date'])) {
      data.metrics.push({
        date: r.keys![0],
        domain: channel.siteUrl,
        sessions: null,
        users: null,
        newUsers: null,
        pageviews: null,
        conversions: null,
        revenue: null,
        impressions: r.impressions ?? 0,
        clicks: r.clicks ?? 0,
        aiSessions: null,
      });
    }
    for (const r of await query(['date', 'page', 'query'])) {
      const [date, page, q] = r.keys!;
      data.content.push({ date, page, query: q ?? '', domain: page, sessions: null, pageviews: null, conversions: null, revenue: null, clicks: r.clicks ?? 0, impressions: r.impressions ?? 0, position: r.position ?? null });
    }
    return data;
  }

  private async rows(api: searchconsole_v1.Searchconsole, siteUrl: string, dimensions: string[], window: DayWindow, retry: RetrySettings): Promise<searchconsole_v1.Schema$ApiDataRow[]> {
    const rowLimit = Math.min(this.settings.pageSize, MAX_ROWS);
    const all: searchconsole_v1.Schema$ApiDataRow[] = [];
    for (let startRow = 0; ; startRow += rowLimit) {
      const res = await withRetries(
        retry,
        () => api.searchanalytics.query({ siteUrl, requestBody: { startDate: window.start, endDate: window.end, dimensions, rowLimit, startRow, dataState: 'final', type: 'web' } }),
        classifySearchConsoleError,
      );
      const page = res.data.rows ?? [];
      all.push(...page);
      if (page.length < rowLimit) return all;
    }
  }
}
