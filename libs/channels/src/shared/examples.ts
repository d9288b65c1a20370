/** Examples of the answers (OpenAPI), shaped as the endpoints answer. */
export const CHANNEL_EXAMPLE = {
  id: 12,
  clientId: 3,
  kind: 'ga4',
  name: 'Acme GA4',
  brandId: 7,
  propertyId: '123456789',
  siteUrl: null,
  backfillDays: 30,
  isActive: true,
  hasCredentials: true,
  cursorDate: '2026-11-23',
  nextSyncAt: '2026-11-25T06:00:00.000Z',
  lastSyncAt: '2026-11-24T06:00:04.000Z',
  lastSyncStatus: 'succeeded',
  createdAt: '2026-10-01T09:30:00.000Z',
  updatedAt: '2026-10-01T09:30:00.000Z',
};

export const SYNC_EXAMPLE = {
  id: 301,
  channelId: 12,
  trigger: 'manual',
  status: 'queued',
  startDate: null,
  endDate: null,
  rows: 0,
  attempts: 0,
  error: null,
  queuedAt: '2026-11-24T10:00:00.000Z',
  startedAt: null,
  finishedAt: null,
  durationMs: null,
};

const meta = { total: 1, limit: 50, offset: 0, hasMore: false };

export const METRIC_EXAMPLE = {
  date: '2026-11-23',
  channel: 'ga4',
  channelId: 12,
  clientId: 3,
  brandId: 7,
  sessions: 1840,
  users: 1502,
  newUsers: 611,
  pageviews: 5210,
  conversions: 42,
  revenue: 3915.5,
  impressions: null,
  clicks: null,
  aiSessions: 96,
};

export const CAMPAIGN_EXAMPLE = { date: '2026-11-23', channel: 'ga4', channelId: 12, clientId: 3, brandId: 7, campaign: 'spring_sale', source: 'newsletter', medium: 'email', sessions: 230, users: 214, conversions: 9, revenue: 812 };
export const CONTENT_EXAMPLE = {
  date: '2026-11-23',
  channel: 'search_console',
  channelId: 13,
  clientId: 3,
  brandId: 7,
  page: 'https://acme.example/pricing',
  query: 'acme crm pricing',
  sessions: null,
  pageviews: null,
  conversions: null,
  revenue: null,
  clicks: 31,
  impressions: 820,
  position: 3.4,
};
export const AUDIENCE_EXAMPLE = { date: '2026-11-23', channel: 'ga4', channelId: 12, clientId: 3, brandId: 7, audience: 'Purchasers', sessions: 310, users: 280, newUsers: 40, conversions: 25, revenue: 2480.25 };

export const page = <T>(item: T) => ({ data: [item], meta });
