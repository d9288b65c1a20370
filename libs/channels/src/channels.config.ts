import { defineConfigSection, type ConfigOf, type ConfigReader } from '@libs/config';

const KEY = /^[A-Za-z0-9+/]{43}=$/;

/** A comma list of 32-byte keys in base64, checked for form (never echoed: the values are keys). */
function keys(r: ConfigReader, name: string): Buffer[] {
  const text = r.optional(name) ?? '';
  const items = text.split(',').map((s) => s.trim()).filter(Boolean);
  if (items.some((k) => !KEY.test(k))) {
    r.problem(name, 'each key must be 32 random bytes in base64 (44 characters)');
    return [];
  }
  return items.map((k) => Buffer.from(k, 'base64'));
}

function httpUrl(r: ConfigReader, name: string): string {
  const v = r.raw(name);
  if (!/^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(v)) r.problem(name, 'must be an http(s) URL');
  return v.replace(/\/+$/, '');
}

/** Channels (DESIGN §13.3): where the connectors reach their APIs, how syncs run, and the credentials' key. */
export const CHANNELS_CONFIG = defineConfigSection(
  'channels',
  [
    { name: 'CHANNEL_CREDENTIALS_KEY', default: '(none)', description: 'Key sealing channel credentials at rest (AES-256-GCM): 32 random bytes in base64; required before a ga4 or search_console channel can be created' },
    { name: 'CHANNEL_CREDENTIALS_OLD_KEYS', default: '(none)', description: 'Former credential keys (comma list, base64), still opening what they sealed while keys rotate' },
    { name: 'GA4_DATA_API_URL', default: 'https://analyticsdata.googleapis.com', description: 'GA4 Data API address (the official client speaks its REST transport to it; a local fake in tests)' },
    { name: 'SEARCH_CONSOLE_API_URL', default: 'https://searchconsole.googleapis.com', description: 'Search Console API address (a local fake in tests)' },
    { name: 'GOOGLE_TOKEN_URL', default: 'https://oauth2.googleapis.com/token', description: "Google's OAuth token endpoint for service-account credentials (a local fake in tests)" },
    { name: 'CHANNEL_SYNC_POLL_MS', default: '60000', description: 'How often the worker looks for channels whose daily sync is due' },
    { name: 'CHANNEL_SYNC_ATTEMPTS', default: '5', description: 'Attempts at one request to a source API (quota and transient errors are retried)' },
    { name: 'CHANNEL_SYNC_BACKOFF_MS', default: '2000', description: 'First retry delay after a quota or transient error, doubled each retry (at most 5 minutes)' },
    { name: 'CHANNEL_SYNC_CHUNK_DAYS', default: '7', description: 'Days fetched per request window; the cursor moves after each window is written' },
    { name: 'CHANNEL_SYNC_REFRESH_DAYS', default: '3', description: 'Recent days fetched again by each sync (sources revise them)' },
    { name: 'CHANNEL_PAGE_SIZE', default: '10000', description: 'Rows per page asked of a source API (GA4 limit, Search Console rowLimit at most 25000)' },
    { name: 'CHANNEL_TIMEOUT_MS', default: '60000', description: 'Timeout of one request to a source API' },
  ],
  (r) => ({
    credentialKeys: keys(r, 'CHANNEL_CREDENTIALS_KEY').slice(0, 1),
    oldCredentialKeys: keys(r, 'CHANNEL_CREDENTIALS_OLD_KEYS'),
    ga4Url: httpUrl(r, 'GA4_DATA_API_URL'),
    searchConsoleUrl: httpUrl(r, 'SEARCH_CONSOLE_API_URL'),
    tokenUrl: httpUrl(r, 'GOOGLE_TOKEN_URL'),
    pollMs: r.int('CHANNEL_SYNC_POLL_MS', 50, 86_400_000),
    attempts: r.int('CHANNEL_SYNC_ATTEMPTS', 1, 20),
    backoffMs: r.int('CHANNEL_SYNC_BACKOFF_MS', 1, 300_000),
    chunkDays: r.int('CHANNEL_SYNC_CHUNK_DAYS', 1, 366),
    refreshDays: r.int('CHANNEL_SYNC_REFRESH_DAYS', 0, 30),
    pageSize: r.int('CHANNEL_PAGE_SIZE', 1, 25_000),
    timeoutMs: r.int('CHANNEL_TIMEOUT_MS', 100, 600_000),
  }),
);
export type ChannelsConfig = ConfigOf<typeof CHANNELS_CONFIG>;
