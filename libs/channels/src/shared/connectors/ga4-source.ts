import type { BetaAnalyticsDataClient } from '@google-analytics/data';

/** The GA4 client library, loaded on the first sync: it takes seconds to load (gRPC, protobufs), which every CLI command and test process would otherwise pay. */
let ga4Library: typeof import('@google-analytics/data') | undefined;
const ga4 = () => (ga4Library ??= require('@google-analytics/data') as typeof import('@google-analytics/data')); // eslint-disable-line @typescript-eslint/no-require-imports
import { emptyData, isAiAssistantSource, type ChannelData } from '../../domain';
import type { ChannelForSync } from '../../channels.repository';
import type { ChannelSource, DayWindow } from './channel-source';
import { serviceAccountClient, type ServiceAccountKey } from './service-account';
import { classifyGoogleError, SourceError, withRetries, type RetrySettings } from './source-errors';

const SCOPE = 'https://www.googleapis.com/auth/analytics.readonly';

export interface Ga4Settings {
  /** The Data API's address, e.g. https://analyticsdata.googleapis.com (a local fake in tests). */
  url: string;
  tokenUrl: string;
  pageSize: number;
  timeoutMs: number;
}

type Report = { dimensions: string[]; metrics: string[] };

/** The reports a window takes (DESIGN §13.3): totals, sources (AI sessions), campaigns, landing pages, audiences. */
const REPORTS = {
  totals: { dimensions: ['date'], metrics: ['sessions', 'totalUsers', 'newUsers', 'screenPageViews', 'keyEvents', 'totalRevenue'] },
  sources: { dimensions: ['date', 'sessionSource'], metrics: ['sessions'] },
  campaigns: { dimensions: ['date', 'sessionCampaignName', 'sessionSource', 'sessionMedium'], metrics: ['sessions', 'totalUsers', 'keyEvents', 'totalRevenue'] },
  content: { dimensions: ['date', 'landingPage'], metrics: ['sessions', 'screenPageViews', 'keyEvents', 'totalRevenue'] },
  audiences: { dimensions: ['date', 'audienceName'], metrics: ['sessions', 'totalUsers', 'newUsers', 'keyEvents', 'totalRevenue'] },
} satisfies Record<string, Report>;

/** GA4's `date` dimension (YYYYMMDD) as a day key. */
const day = (yyyymmdd: string) => `${yyyymmdd.slice(0, 4)}-${yyyymmdd.slice(4, 6)}-${yyyymmdd.slice(6, 8)}`;
const num = (v: string | null | undefined) => (v === undefined || v === null || v === '' || !Number.isFinite(Number(v)) ? null : Number(v));

/** What went wrong in a call of the official client, as a SourceError (quota and transient errors retryable). */
export const classifyGa4Error = (error: unknown) => classifyGoogleError('GA4 Data API', error);

/**
 * GA4 through the official Data API client (`@google-analytics/data`, `runReport`) on its REST
 * transport (`fallback: true`), pointed at the configured address; credentials are the
 * service-account key, which the client turns into a self-signed JWT per request (as it does
 * against Google). Each report is read page by page (limit/offset up to `rowCount`).
 */
export class Ga4Source implements ChannelSource {
  constructor(private readonly settings: Ga4Settings) {}

  private client(key: ServiceAccountKey): BetaAnalyticsDataClient {
    const url = new URL(this.settings.url);
    const protocol = url.protocol.replace(':', '');
    return new (ga4().BetaAnalyticsDataClient)({
      fallback: true,
      apiEndpoint: url.hostname,
      port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
      protocol,
      authClient: serviceAccountClient(key, [SCOPE], this.settings.tokenUrl, this.settings.timeoutMs),
      scopes: [SCOPE],
    } as unknown as ConstructorParameters<typeof BetaAnalyticsDataClient>[0]);
  }

  async fetch(channel: ChannelForSync, credentials: string | null, window: DayWindow, retry: RetrySettings): Promise<ChannelData> {
    if (!credentials || !channel.propertyId) throw new SourceError('the channel has no property id or credentials', false);
    const client = this.client(JSON.parse(credentials) as ServiceAccountKey);
    try {
      const read = (report: Report) => this.report(client, channel.propertyId!, report, window, retry);
      const data = emptyData();
      const totals = await read(REPORTS.totals);
      const ai = new Map<string, number>();
      for (const [d, [source], [sessions]] of await read(REPORTS.sources)) if (isAiAssistantSource(source)) ai.set(d, (ai.get(d) ?? 0) + (sessions ?? 0));
      for (const [d, , [sessions, users, newUsers, pageviews, conversions, revenue]] of totals) {
        data.metrics.push({ date: d, sessions, users, newUsers, pageviews, conversions, revenue, impressions: null, clicks: null, aiSessions: ai.get(d) ?? 0 });
      }
      for (const [d, [campaign, source, medium], [sessions, users, conversions, revenue]] of await read(REPORTS.campaigns)) {
        data.campaigns.push({ date: d, campaign, source, medium, sessions, users, conversions, revenue });
      }
      for (const [d, [page], [sessions, pageviews, conversions, revenue]] of await read(REPORTS.content)) {
        data.content.push({ date: d, page, query: '', sessions, pageviews, conversions, revenue, clicks: null, impressions: null, position: null });
      }
      for (const [d, [audience], [sessions, users, newUsers, conversions, revenue]] of await read(REPORTS.audiences)) {
        data.audiences.push({ date: d, audience, sessions, users, newUsers, conversions, revenue });
      }
      return data;
    } finally {
      await client.close().catch(() => undefined);
    }
  }

  /** Every row of one report over the window, page by page: [day, other dimension values, metric values]. */
  private async report(client: BetaAnalyticsDataClient, propertyId: string, report: Report, window: DayWindow, retry: RetrySettings): Promise<[string, string[], (number | null)[]][]> {
    const rows: [string, string[], (number | null)[]][] = [];
    for (let offset = 0; ; ) {
      const [response] = await withRetries(
        retry,
        () =>
          client.runReport(
            {
              property: `properties/${propertyId}`,
              dateRanges: [{ startDate: window.start, endDate: window.end }],
              dimensions: report.dimensions.map((name) => ({ name })),
              metrics: report.metrics.map((name) => ({ name })),
              limit: this.settings.pageSize,
              offset,
              keepEmptyRows: false,
            },
            { timeout: this.settings.timeoutMs, retry: null },
          ),
        classifyGa4Error,
      );
      const page = response.rows ?? [];
      for (const r of page) {
        const dims = (r.dimensionValues ?? []).map((v) => v.value ?? '');
        rows.push([day(dims[0]), dims.slice(1), (r.metricValues ?? []).map((v) => num(v.value))]);
      }
      offset += page.length;
      if (!page.length || offset >= Number(response.rowCount ?? 0)) return rows;
    }
  }
}
