import { newServiceAccount, startFakeGoogle, type FakeGoogle, type ServiceAccount } from '../../../../../test/support/fake-google';
import type { ChannelForSync } from '../../channels.repository';
import { isAiAssistantSource } from '../../domain';
import { Ga4Source } from './ga4-source';
import { SearchConsoleSource } from './search-console-source';
import { SourceError, type RetrySettings } from './source-errors';

/** The official clients against the local fake of Google's wire formats (token endpoint, GA4 Data API REST, Search Console). */
let google: FakeGoogle;
let account: ServiceAccount;
const waits: number[] = [];
const retry: RetrySettings = { attempts: 4, backoffMs: 20, onRetry: (_e, _n, delay) => waits.push(delay) };

const channel = (over: Partial<ChannelForSync>): ChannelForSync => ({
  id: 1,
  organizationId: 1,
  clientId: 1,
  kind: 'ga4',
  name: 'x',
  brandId: null,
  propertyId: '123456',
  siteUrl: null,
  backfillDays: 30,
  isActive: true,
  hasCredentials: true,
  cursorDate: null,
  nextSyncAt: null,
  lastSyncAt: null,
  lastSyncStatus: null,
  createdAt: '',
  updatedAt: '',
  credentialsSealed: 'x',
  ...over,
});

beforeAll(async () => {
  google = await startFakeGoogle();
  account = newServiceAccount();
  google.register(account);
});
afterAll(() => google.close());
beforeEach(() => {
  google.requests.length = 0;
  waits.length = 0;
});

describe('GA4 through @google-analytics/data (REST transport)', () => {
  const source = (pageSize = 10_000) => new Ga4Source({ url: google.url, tokenUrl: google.tokenUrl, pageSize, timeoutMs: 10_000 });

  it('reads daily totals, AI sessions, campaigns, landing pages and audiences for the window, page by page', async () => {
    const data = await source(3).fetch(channel({}), JSON.stringify(account), { start: '2026-03-01', end: '2026-03-02' }, retry);
    const facts = ['2026-03-01', '2026-03-02'].map((d) => ({ d, f: google.ga4Facts('123456', d) }));
    expect(data.metrics).toEqual(
      facts.map(({ d, f }) => ({
        date: d,
        sessions: f.reduce((s, x) => s + x.sessions, 0),
        users: f.reduce((s, x) => s + x.totalUsers, 0),
        newUsers: f.reduce((s, x) => s + x.newUsers, 0),
        pageviews: f.reduce((s, x) => s + x.screenPageViews, 0),
        conversions: f.reduce((s, x) => s + x.keyEvents, 0),
        revenue: Math.round(f.reduce((s, x) => s + x.totalRevenue, 0) * 100) / 100,
        impressions: null,
        clicks: null,
        aiSessions: f.filter((x) => isAiAssistantSource(x.source)).reduce((s, x) => s + x.sessions, 0),
      })),
    );
    expect(data.campaigns).toHaveLength(2 * 4);
    expect(data.content).toHaveLength(2 * 2);
    expect(data.audiences.map((a) => a.audience).sort()).toEqual(['All Users', 'All Users', 'Purchasers', 'Purchasers']);
    // Page size 3: the campaigns report (8 rows) took three pages with offsets 0, 3, 6.
    const campaignOffsets = google.requests.filter((r) => JSON.stringify(r.body.dimensions).includes('sessionCampaignName')).map((r) => Number(r.body.offset ?? 0));
    expect(campaignOffsets).toEqual([0, 3, 6]);
    // The client sent a self-signed service-account JWT, no token request.
    expect(google.requests.every((r) => r.api === 'ga4' && r.authorization?.startsWith('Bearer ey'))).toBe(true);
  });

  it('retries a quota error (429 RESOURCE_EXHAUSTED) with backoff, then succeeds', async () => {
    google.script({ status: 429 }, { status: 429 });
    const data = await source().fetch(channel({}), JSON.stringify(account), { start: '2026-03-01', end: '2026-03-01' }, retry);
    expect(data.metrics).toHaveLength(1);
    expect(waits).toHaveLength(2);
    expect(waits[1]).toBeGreaterThanOrEqual(20);
  });

  it('gives up after the attempts, and does not retry a refusal', async () => {
    google.script({ status: 429 }, { status: 429 }, { status: 429 }, { status: 429 });
    await expect(source().fetch(channel({}), JSON.stringify(account), { start: '2026-03-01', end: '2026-03-01' }, retry)).rejects.toThrow(/quota/);
    google.script({ status: 403, reason: 'forbidden' });
    const error = await source().fetch(channel({}), JSON.stringify(account), { start: '2026-03-01', end: '2026-03-01' }, retry).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as SourceError).retryable).toBe(false);
  });

  it('is refused with credentials the API does not know', async () => {
    const stranger = newServiceAccount();
    const error = await source().fetch(channel({}), JSON.stringify(stranger), { start: '2026-03-01', end: '2026-03-01' }, retry).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    expect(String((error as Error).message)).toMatch(/authentication/i);
  });
});

describe('Search Console through @googleapis/searchconsole', () => {
  const source = (pageSize = 25_000) => new SearchConsoleSource({ url: google.url, tokenUrl: google.tokenUrl, pageSize, timeoutMs: 10_000 });
  const sc = channel({ kind: 'search_console', propertyId: null, siteUrl: 'sc-domain:acme.example' });

  it('gets a token from the token endpoint, then daily clicks and impressions, and rows by page and query, paged', async () => {
    const data = await source(4).fetch(sc, JSON.stringify(account), { start: '2026-03-01', end: '2026-03-02' }, retry);
    const day1 = google.scFacts('sc-domain:acme.example', '2026-03-01');
    expect(data.metrics[0]).toMatchObject({ date: '2026-03-01', clicks: day1.reduce((s, f) => s + f.clicks, 0), impressions: day1.reduce((s, f) => s + f.impressions, 0), sessions: null });
    expect(data.content).toHaveLength(2 * 9);
    expect(data.content).toContainEqual(expect.objectContaining({ date: '2026-03-01', page: 'https://acme.example/', query: 'acme crm', domain: 'https://acme.example/' }));
    const token = google.requests.filter((r) => r.api === 'token');
    expect(token).toHaveLength(1);
    expect(token[0].body.grant_type).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const startRows = google.requests.filter((r) => r.api === 'search_console' && (r.body.dimensions as string[]).length === 3).map((r) => r.body.startRow);
    expect(startRows).toEqual([0, 4, 8, 12, 16]);
    expect(google.requests.find((r) => r.api === 'search_console')!.path).toBe('/webmasters/v3/sites/sc-domain%3Aacme.example/searchAnalytics/query');
  });

  it('retries 429 and a quota 403 with backoff', async () => {
    google.script({ status: 429, retryAfter: '0' }, { status: 403, reason: 'quotaExceeded' });
    const data = await source().fetch(sc, JSON.stringify(account), { start: '2026-03-01', end: '2026-03-01' }, retry);
    expect(data.metrics).toHaveLength(1);
    expect(waits).toHaveLength(2);
  });
});
