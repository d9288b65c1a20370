import { randomBytes } from 'node:crypto';
import { addDays, utcDay } from '@libs/metrics';
import { ChannelSyncer, SyncScheduler } from '@libs/channels';
import { WorkerPartModule } from '../../apps/worker/src/worker.module';
import { newServiceAccount, startFakeGoogle, type FakeGoogle, type ServiceAccount } from '../support/fake-google';
import { startTestApi, type TestApi } from '../support/test-api';
import { until } from '../support/until';
import { cli } from '../support/cli';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Channels (issue 18) over HTTP against PostgreSQL and Redis, the connectors against a local fake of Google's APIs. */
let api: TestApi;
let google: FakeGoogle;
let account: ServiceAccount;
let org: { id: number; key: string };
let other: { id: number; key: string };
let client: { id: number };
let otherClient: { id: number };
let brand: { id: number };
let brand2: { id: number };
const today = utcDay(Date.now());
const responses: string[] = [];
const credentialsKey = randomBytes(32).toString('base64');

async function call(opts: Parameters<TestApi['request']>[0]) {
  const res = await api.request(opts);
  responses.push(JSON.stringify(res.body ?? ''));
  return res;
}
const get = (url: string, key = org.key) => call({ url, key });
const csv = (url: string, body: string, headers: Record<string, string> = {}, key = org.key) => call({ method: 'POST', url, key, body, headers: { 'content-type': 'text/csv', ...headers } });
const fields = (res: { body: { error: { details?: { fields?: { field: string; message: string }[] } } } }) => (res.body.error.details?.fields ?? []).map((f) => f.field);

beforeAll(async () => {
  google = await startFakeGoogle();
  account = newServiceAccount();
  google.register(account);
  api = await startTestApi(
    {
      CHANNEL_CREDENTIALS_KEY: credentialsKey,
      GA4_DATA_API_URL: google.url,
      SEARCH_CONSOLE_API_URL: google.url,
      GOOGLE_TOKEN_URL: google.tokenUrl,
      CHANNEL_SYNC_POLL_MS: '86400000',
      CHANNEL_SYNC_BACKOFF_MS: '10',
      CHANNEL_SYNC_CHUNK_DAYS: '3',
      CHANNEL_SYNC_REFRESH_DAYS: '0',
      ANALYSIS_SCHEDULER_POLL_MS: '86400000',
    },
    [WorkerPartModule.forRoot()],
  );
  org = await api.organization();
  other = await api.organization();
  client = await api.tenancy.createClient(org.id, 'Client A');
  otherClient = await api.tenancy.createClient(org.id, 'Client B');
  brand = await api.tenancy.createBrand({ organizationId: org.id, clientId: client.id, name: 'Acme', domain: 'acme.example' });
  brand2 = await api.tenancy.createBrand({ organizationId: org.id, clientId: client.id, name: 'Acme Labs', domain: 'acmelabs.example' });
});
afterAll(async () => {
  await api?.close();
  await google?.close();
});

describe('channel connections', () => {
  let ga4: { id: number };

  it('creates a ga4 channel; the credentials are stored sealed and never returned', async () => {
    const res = await call({ method: 'POST', url: '/api/v1/channels', key: org.key, body: { clientId: client.id, kind: 'ga4', name: 'Acme GA4', brandId: brand.id, propertyId: '123456', credentials: account, backfillDays: 5 } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ clientId: client.id, kind: 'ga4', brandId: brand.id, propertyId: '123456', hasCredentials: true, backfillDays: 5, cursorDate: null });
    expect(JSON.stringify(res.body)).not.toMatch(/private_key|client_email|BEGIN/);
    ga4 = res.body.data;
    const [row] = await api.dataSource.query(`SELECT credentials_sealed FROM channels WHERE id = $1`, [ga4.id]);
    expect(row.credentials_sealed).toMatch(/^chc:v1:/);
    expect(row.credentials_sealed).not.toContain(account.client_email);
  });

  it('lists a client’s channels (clientId required), gets and updates one', async () => {
    const list = await get(`/api/v1/channels?clientId=${client.id}`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: { id: number }) => c.id)).toContain(ga4.id);
    expect((await get(`/api/v1/channels?clientId=${otherClient.id}`)).body.data).toEqual([]);
    const patched = await call({ method: 'PATCH', url: `/api/v1/channels/${ga4.id}`, key: org.key, body: { name: 'Renamed', brandId: null } });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ name: 'Renamed', brandId: null, hasCredentials: true });
    await call({ method: 'PATCH', url: `/api/v1/channels/${ga4.id}`, key: org.key, body: { brandId: brand.id } });
  });

  it.each([
    ['/api/v1/channels', 'clientId'],
    ['/api/v1/channels?clientId=abc', 'clientId'],
    ['/api/v1/channels?clientId=1.5', 'clientId'],
    ['/api/v1/channels?clientId=0', 'clientId'],
  ])('GET %s is 400 naming %s', async (url, field) => {
    const res = await get(url);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(fields(res)).toContain(field);
  });

  it.each([
    [{ kind: 'ga4', name: 'x' }, 'propertyId'],
    [{ kind: 'ga4', name: 'x', propertyId: '1' }, 'credentials'],
    [{ kind: 'ga4', name: 'x', propertyId: '1', credentials: { client_email: 'a@b.c', private_key: 'nope' } }, 'credentials'],
    [{ kind: 'search_console', name: 'x', credentials: {} }, 'siteUrl'],
    [{ kind: 'search_console', name: 'x', siteUrl: 'ftp://x' }, 'siteUrl'],
    [{ kind: 'import', name: 'x', propertyId: '1' }, 'propertyId'],
    [{ kind: 'ai_referrals', name: 'x' }, 'kind'],
    [{ kind: 'ga4', name: '', propertyId: '1' }, 'name'],
    [{ kind: 'import', name: 'x', backfillDays: 0 }, 'backfillDays'],
  ])('POST %j is 400 naming %s', async (body, field) => {
    const res = await call({ method: 'POST', url: '/api/v1/channels', key: org.key, body: { clientId: client.id, ...body } });
    expect(res.status).toBe(400);
    expect(fields(res)).toContain(field);
  });

  it('401 without credentials, 403 without the scope, 404 for another organisation and another client', async () => {
    expect((await call({ url: `/api/v1/channels?clientId=${client.id}` })).status).toBe(401);
    const writer = await api.keys.create({ organizationId: org.id, scopes: ['write:metrics'], tier: 'enterprise' });
    const reader = await api.keys.create({ organizationId: org.id, scopes: ['read:metrics'], tier: 'enterprise' });
    const noRead = await get(`/api/v1/channels?clientId=${client.id}`, writer.key);
    expect(noRead.status).toBe(403);
    expect(noRead.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required: 'read:metrics' } });
    expect((await get(`/api/v1/metrics`, writer.key)).status).toBe(403);
    expect((await call({ method: 'POST', url: '/api/v1/channels', key: reader.key, body: { clientId: client.id, kind: 'import', name: 'x' } })).status).toBe(403);
    // Another organisation: its client, and this organisation's channel, are 404.
    expect((await get(`/api/v1/channels?clientId=${client.id}`, other.key)).status).toBe(404);
    for (const [method, url] of [
      ['GET', `/api/v1/channels/${ga4.id}`],
      ['PATCH', `/api/v1/channels/${ga4.id}`],
      ['DELETE', `/api/v1/channels/${ga4.id}`],
      ['POST', `/api/v1/channels/${ga4.id}/sync`],
      ['GET', `/api/v1/channels/${ga4.id}/syncs`],
    ]) {
      const res = await call({ method, url, key: other.key, ...(method === 'PATCH' && { body: { name: 'x' } }) });
      expect([method, url, res.status, res.body.error?.code]).toEqual([method, url, 404, 'NOT_FOUND']);
    }
    expect((await csv(`/api/v1/channels/${ga4.id}/imports`, 'date,sessions\n2026-01-01,1\n', {}, other.key)).status).toBe(404);
    // A key bound to client B sees neither client A's channels nor its list.
    const bound = await api.keys.create({ organizationId: org.id, scopes: ['read:metrics', 'write:metrics'], tier: 'enterprise', clientId: otherClient.id });
    expect((await get(`/api/v1/channels/${ga4.id}`, bound.key)).status).toBe(404);
    expect((await get(`/api/v1/channels?clientId=${client.id}`, bound.key)).status).toBe(404);
    expect((await call({ method: 'POST', url: '/api/v1/channels', key: bound.key, body: { clientId: client.id, kind: 'import', name: 'x' } })).status).toBe(404);
  });

  it('syncs now: backfills the chosen days up to yesterday through the GA4 client, records the sync, moves the cursor', async () => {
    const res = await call({ method: 'POST', url: `/api/v1/channels/${ga4.id}/sync`, key: org.key });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ channelId: ga4.id, trigger: 'manual', status: 'queued' });
    await until(async () => (await get(`/api/v1/channels/${ga4.id}/syncs`)).body.data[0].status !== 'queued' && (await get(`/api/v1/channels/${ga4.id}/syncs`)).body.data[0].status !== 'running', 20_000, 'the sync');
    const [sync] = (await get(`/api/v1/channels/${ga4.id}/syncs`)).body.data;
    expect(sync).toMatchObject({ status: 'succeeded', startDate: addDays(today, -5), endDate: addDays(today, -1), error: null });
    expect(sync.rows).toBeGreaterThan(0);
    expect(sync.durationMs).toBeGreaterThanOrEqual(0);
    // Backfill window: the first report asked for the five days before today in windows of three days.
    const windows = google.requests.filter((r) => r.api === 'ga4' && JSON.stringify(r.body.dimensions) === '[{"name":"date"}]').map((r) => (r.body.dateRanges as { startDate: string; endDate: string }[])[0]);
    expect(windows).toEqual([
      { startDate: addDays(today, -5), endDate: addDays(today, -3) },
      { startDate: addDays(today, -2), endDate: addDays(today, -1) },
    ]);
    expect((await get(`/api/v1/channels/${ga4.id}`)).body.data).toMatchObject({ cursorDate: addDays(today, -1), lastSyncStatus: 'succeeded' });
    const metrics = await get(`/api/v1/metrics?channel=ga4&clientId=${client.id}&limit=10`);
    expect(metrics.body.meta.total).toBe(5);
    const day = addDays(today, -2);
    const facts = google.ga4Facts('123456', day);
    expect(metrics.body.data.find((m: { date: string }) => m.date === day)).toEqual({
      date: day,
      channel: 'ga4',
      channelId: ga4.id,
      clientId: client.id,
      brandId: brand.id,
      sessions: facts.reduce((s, f) => s + f.sessions, 0),
      users: facts.reduce((s, f) => s + f.totalUsers, 0),
      newUsers: facts.reduce((s, f) => s + f.newUsers, 0),
      pageviews: facts.reduce((s, f) => s + f.screenPageViews, 0),
      conversions: facts.reduce((s, f) => s + f.keyEvents, 0),
      revenue: Math.round(facts.reduce((s, f) => s + f.totalRevenue, 0) * 100) / 100,
      impressions: null,
      clicks: null,
      aiSessions: facts.filter((f) => ['chatgpt.com', 'perplexity.ai'].includes(f.source)).reduce((s, f) => s + f.sessions, 0),
    });
    const campaigns = await get(`/api/v1/campaigns?channel=ga4&limit=200`);
    expect(campaigns.body.meta.total).toBe(5 * 4);
    const content = await get(`/api/v1/content?channel=ga4&sort=sessions&order=desc&limit=3`);
    expect(content.body.data).toHaveLength(3);
    expect(content.body.data[0].sessions).toBeGreaterThanOrEqual(content.body.data[1].sessions);
    expect(content.body.data[0].query).toBeNull();
    const audiences = await get(`/api/v1/audiences?channel=ga4&limit=1&offset=1`);
    expect(audiences.body.meta).toEqual({ total: 10, limit: 1, offset: 1, hasMore: true });
  });

  it('a sync that fails mid-window keeps the cursor after the last written window, and the next sync resumes there', async () => {
    const created = await call({ method: 'POST', url: '/api/v1/channels', key: org.key, body: { clientId: client.id, kind: 'ga4', name: 'Second', propertyId: '777', credentials: account, backfillDays: 6 } });
    const id = created.body.data.id as number;
    const syncer = api.app.get(ChannelSyncer);
    google.requests.length = 0;
    google.failFrom(addDays(today, -3)); // the second window (of three days) fails
    const first = await syncer.run((await queue(id)).id, id);
    expect(first).toMatchObject({ status: 'failed', startDate: addDays(today, -6) });
    expect(first.error).toMatch(/503/);
    expect(first.error).not.toContain(account.private_key.split('\n')[1]);
    expect((await get(`/api/v1/channels/${id}`)).body.data.cursorDate).toBe(addDays(today, -4));
    google.failFrom(null);
    google.requests.length = 0;
    const second = await syncer.run((await queue(id)).id, id);
    expect(second).toMatchObject({ status: 'succeeded', startDate: addDays(today, -3), endDate: addDays(today, -1) });
    expect(google.requests.every((r) => (r.body.dateRanges as { startDate: string }[])[0].startDate >= addDays(today, -3))).toBe(true);
    const syncs = (await get(`/api/v1/channels/${id}/syncs?order=asc`)).body.data;
    expect(syncs.map((s: { status: string }) => s.status)).toEqual(['failed', 'succeeded']);
    expect(JSON.stringify(syncs)).not.toContain(account.private_key.split('\n')[1]);
  });

  it('retries a quota error during a sync with backoff and records the attempts', async () => {
    const created = await call({ method: 'POST', url: '/api/v1/channels', key: org.key, body: { clientId: client.id, kind: 'search_console', name: 'SC', siteUrl: 'sc-domain:acme.example', credentials: account, backfillDays: 2 } });
    const id = created.body.data.id as number;
    google.script({ status: 429 }, { status: 429 });
    const outcome = await api.app.get(ChannelSyncer).run((await queue(id)).id, id);
    expect(outcome).toMatchObject({ status: 'succeeded', attempts: 3 });
    const rows = await get(`/api/v1/metrics?channelId=${id}&order=asc`);
    expect(rows.body.data.map((r: { date: string }) => r.date)).toEqual([addDays(today, -2), addDays(today, -1)]);
    expect(rows.body.data[0]).toMatchObject({ brandId: brand.id, sessions: null, clicks: expect.any(Number), impressions: expect.any(Number) });
    const content = await get(`/api/v1/content?channel=search_console&limit=200`);
    expect(content.body.meta.total).toBe(2 * 9);
    expect(content.body.data[0].query).toEqual(expect.any(String));
  });

  it('the daily schedule claims a due channel once and queues its sync', async () => {
    const scheduler = api.app.get(SyncScheduler);
    const future = new Date(Date.now() + 2 * 86_400_000);
    const [a, b] = await Promise.all([scheduler.queueDue(future), scheduler.queueDue(future)]);
    const ids = [...a, ...b];
    expect(new Set(ids).size).toBe(ids.length);
    const [{ n }] = await api.dataSource.query(`SELECT count(*)::int AS n FROM channels WHERE kind <> 'import' AND is_active`);
    expect(ids.length).toBe(n);
    expect(await scheduler.queueDue(future)).toEqual([]);
  });

  it('ai_referrals: built in for a client with AI referral visits (agent analytics), synced into sessions and aiSessions per brand', async () => {
    const day = addDays(today, -2);
    // What agent analytics' ingestion writes for human visits referred by AI assistants.
    await api.dataSource.query(
      `INSERT INTO ai_referral_daily (organization_id, brand_id, host, day, source, path, visits) VALUES
         ($1, $2, 'acme.example', $4, 'chatgpt.com', '/pricing', 3), ($1, $2, 'acme.example', $4, 'perplexity.ai', '/', 2), ($1, $3, 'acmelabs.example', $4, 'claude.ai', '/', 4)`,
      [org.id, brand.id, brand2.id, day],
    );
    const list = (await get(`/api/v1/channels?clientId=${client.id}`)).body.data;
    const ai = list.find((c: { kind: string }) => c.kind === 'ai_referrals');
    expect(ai).toMatchObject({ name: 'AI referrals', hasCredentials: false });
    expect((await get(`/api/v1/channels?clientId=${otherClient.id}`)).body.data).toEqual([]);
    expect((await call({ method: 'DELETE', url: `/api/v1/channels/${ai.id}`, key: org.key })).status).toBe(400);
    const outcome = await api.app.get(ChannelSyncer).run((await queue(ai.id)).id, ai.id);
    expect(outcome.status).toBe('succeeded');
    const rows = (await get(`/api/v1/metrics?channel=ai_referrals&sort=sessions`)).body.data;
    expect(rows).toEqual([
      expect.objectContaining({ date: day, brandId: brand.id, sessions: 5, aiSessions: 5, revenue: null }),
      expect.objectContaining({ date: day, brandId: brand2.id, sessions: 4, aiSessions: 4 }),
    ]);
    const sources = (await get(`/api/v1/campaigns?channel=ai_referrals&sort=campaign&order=asc`)).body.data.map((c: { source: string }) => c.source).sort();
    expect(sources).toEqual(['chatgpt.com', 'claude.ai', 'perplexity.ai']);
  });

  it('cli channels create, sync and delete (credentials from a key file, never printed)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'channels-'));
    writeFileSync(join(dir, 'key.json'), JSON.stringify({ type: 'service_account', ...account, token_uri: 'https://elsewhere.example/token' }));
    const env = { DATABASE_URL: api.db.url, CHANNEL_CREDENTIALS_KEY: credentialsKey, GA4_DATA_API_URL: google.url, GOOGLE_TOKEN_URL: google.tokenUrl, CHANNEL_SYNC_CHUNK_DAYS: '7' };
    const created = await cli(['--json', 'channels', 'create', '--org', String(org.id), '--client', String(client.id), '--kind', 'ga4', '--name', 'From CLI', '--property-id', '31', '--credentials-file', join(dir, 'key.json'), '--backfill-days', '3'], env);
    expect(created.code).toBe(0);
    const channel = JSON.parse(created.stdout) as { id: number; hasCredentials: boolean };
    expect(channel.hasCredentials).toBe(true);
    const bad = await cli(['channels', 'create', '--org', String(org.id), '--client', String(client.id), '--kind', 'ga4', '--name', 'x'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/propertyId is required/);
    const synced = await cli(['--json', 'channels', 'sync', '--id', String(channel.id)], env);
    expect(synced.code).toBe(0);
    expect(JSON.parse(synced.stdout)).toMatchObject({ status: 'succeeded', startDate: addDays(today, -3), endDate: addDays(today, -1) });
    for (const out of [created.stdout, created.stderr, synced.stdout, synced.stderr]) expect(out).not.toContain(account.private_key.split('\n')[1]);
    const deleted = await cli(['--json', 'channels', 'delete', '--org', String(org.id), '--id', String(channel.id)], env);
    expect(deleted.code).toBe(0);
    expect((await get(`/api/v1/channels/${channel.id}`)).status).toBe(404);
  }, 300_000);

  async function queue(channelId: number): Promise<{ id: number }> {
    const [row] = await api.dataSource.query(`INSERT INTO channel_syncs (organization_id, channel_id, trigger, status) VALUES ($1, $2, 'manual', 'queued') RETURNING id`, [org.id, channelId]);
    return { id: Number(row.id) };
  }
});

describe('imports', () => {
  let channel: { id: number };
  const url = () => `/api/v1/channels/${channel.id}/imports`;

  beforeAll(async () => {
    channel = (await call({ method: 'POST', url: '/api/v1/channels', key: org.key, body: { clientId: client.id, kind: 'import', name: 'Uploads', brandId: brand.id } })).body.data;
  });

  it('imports a CSV: rows mapped to the channel’s brand or the named domain, figures null where absent', async () => {
    const res = await csv(url(), 'date,domain,sessions,revenue,aiSessions\n2026-01-01,,100,250.50,7\n2026-01-01,acmelabs.example,40,,\n2026-01-02,,120,300,9\n');
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ rows: 3, startDate: '2026-01-01', endDate: '2026-01-02', replayed: false });
    const rows = await get(`/api/v1/metrics?channelId=${channel.id}&sort=date&order=asc`);
    expect(rows.body.data).toEqual([
      expect.objectContaining({ date: '2026-01-01', brandId: brand.id, sessions: 100, revenue: 250.5, aiSessions: 7, users: null, clicks: null }),
      expect.objectContaining({ date: '2026-01-01', brandId: brand2.id, sessions: 40, revenue: null }),
      expect.objectContaining({ date: '2026-01-02', brandId: brand.id, sessions: 120 }),
    ]);
    const byBrand = await get(`/api/v1/metrics?channelId=${channel.id}&brandId=${brand2.id}`);
    expect(byBrand.body.meta.total).toBe(1);
  });

  it('imports a CSV with quoted cells (RFC 4180) and CRLF line ends', async () => {
    const res = await csv(url(), '"date","sessions","domain"\r\n"2026-06-01","5","acmelabs.example"\r\n2026-06-02,6,\r\n');
    expect(res.status).toBe(201);
    expect(res.body.data.rows).toBe(2);
    const bad = await csv(url(), '"date","sessions"\n"2026-06-03","7","x"\n');
    expect(bad.status).toBe(400);
    expect(fields(bad)).toEqual(['rows[2]']);
  });

  it('imports NDJSON', async () => {
    const res = await call({ method: 'POST', url: url(), key: org.key, body: '{"date":"2026-02-01","sessions":5,"conversions":1.5}\n{"date":"2026-02-02","brandId":' + brand2.id + ',"clicks":3}\n', headers: { 'content-type': 'application/x-ndjson' } });
    expect(res.status).toBe(201);
    expect(res.body.data.rows).toBe(2);
  });

  it('refuses a file with a bad row, naming the row and field; nothing of it is imported', async () => {
    const before = (await get(`/api/v1/metrics?channelId=${channel.id}`)).body.meta.total;
    const res = await csv(url(), 'date,sessions,revenue\n2026-03-01,10,5\n2026-03-02,11,-4\n2026/03/03,12,1\n2026-03-04,1.5,1\n');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(fields(res)).toEqual(['rows[3].revenue', 'rows[4].date', 'rows[5].sessions']);
    expect((await get(`/api/v1/metrics?channelId=${channel.id}`)).body.meta.total).toBe(before);
  });

  it.each([
    ['date,visits\n2026-01-01,1\n', 'header'],
    ['sessions\n1\n', 'header'],
    ['date,brandId,sessions\n2026-01-01,999999,1\n', 'rows[2].brandId'],
    ['date,domain,sessions\n2026-01-01,unknown.example,1\n', 'rows[2].domain'],
    ['date,sessions\n2026-01-01,1\n2026-01-01,2\n', 'rows[3].date'],
    ['date,sessions\n2026-13-01,1\n', 'rows[2].date'],
    ['date,sessions\n2026-01-01,1,2\n', 'rows[2]'],
    ['', 'body'],
  ])('refuses %j naming %s', async (body, field) => {
    const res = await csv(url(), body);
    expect(res.status).toBe(400);
    expect(fields(res)).toContain(field);
  });

  it('refuses a file over 10 MB with 400', async () => {
    const line = '2026-01-01,1\n';
    const res = await csv(url(), 'date,sessions\n' + line.repeat(Math.ceil((10 * 1024 * 1024) / line.length) + 10));
    expect(res.status).toBe(400);
    expect(fields(res)).toEqual(['body']);
  });

  it('a re-sent import with the same Idempotency-Key changes nothing; another file under it is 409', async () => {
    const body = 'date,sessions\n2026-04-01,10\n';
    const first = await csv(url(), body, { 'idempotency-key': 'upload-1' });
    expect(first.status).toBe(201);
    await api.dataSource.query(`UPDATE channel_metrics_daily SET sessions = 99 WHERE channel_id = $1 AND day = '2026-04-01'`, [channel.id]);
    const syncsBefore = (await get(`/api/v1/channels/${channel.id}/syncs`)).body.meta.total;
    const again = await csv(url(), body, { 'idempotency-key': 'upload-1' });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ ...first.body.data, replayed: true });
    expect((await get(`/api/v1/channels/${channel.id}/syncs`)).body.meta.total).toBe(syncsBefore);
    expect((await get(`/api/v1/metrics?channelId=${channel.id}&startDate=2026-04-01&endDate=2026-04-01`)).body.data[0].sessions).toBe(99);
    const conflict = await csv(url(), 'date,sessions\n2026-04-01,11\n', { 'idempotency-key': 'upload-1' });
    expect(conflict.status).toBe(409);
  });

  it('cli metrics import imports a file, and refuses a bad one naming its line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'channels-'));
    writeFileSync(join(dir, 'good.csv'), 'date,sessions\n2026-05-01,3\n2026-05-02,4\n');
    writeFileSync(join(dir, 'bad.ndjson'), '{"date":"2026-05-03","revenue":-1}\n');
    const env = { DATABASE_URL: api.db.url };
    const good = await cli(['--json', 'metrics', 'import', '--channel', String(channel.id), join(dir, 'good.csv')], env);
    expect(good.code).toBe(0);
    expect(JSON.parse(good.stdout)).toMatchObject({ rows: 2, startDate: '2026-05-01', endDate: '2026-05-02' });
    const bad = await cli(['metrics', 'import', '--channel', String(channel.id), join(dir, 'bad.ndjson')], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/line 1: revenue must be a non-negative number/);
  }, 180_000); // two CLI processes, each compiling the app on start

  it('refuses an import into a channel that is not an import channel, and an unsupported media type', async () => {
    const [ga4] = (await get(`/api/v1/channels?clientId=${client.id}`)).body.data;
    expect((await csv(`/api/v1/channels/${ga4.id}/imports`, 'date,sessions\n2026-01-01,1\n')).status).toBe(400);
    expect((await call({ method: 'POST', url: url(), key: org.key, body: 'x', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    // A CSV body elsewhere is 415, as before imports existed.
    const elsewhere = await call({ method: 'POST', url: '/api/v1/channels', key: org.key, body: 'a,b\n1,2\n', headers: { 'content-type': 'text/csv' } });
    expect([elsewhere.status, elsewhere.body.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
  });
});

describe('read endpoints: filters and bounds', () => {
  it.each(['metrics', 'campaigns', 'content', 'audiences'])('/%s filters by channel, client, brand and dates, and pages', async (name) => {
    const all = await get(`/api/v1/${name}?limit=200`);
    expect(all.status).toBe(200);
    for (const row of all.body.data) expect(row.clientId).toBe(client.id);
    const ga4 = await get(`/api/v1/${name}?channel=ga4&limit=200`);
    expect(ga4.body.data.every((r: { channel: string }) => r.channel === 'ga4')).toBe(true);
    const day = addDays(today, -2);
    const oneDay = await get(`/api/v1/${name}?startDate=${day}&endDate=${day}&limit=200`);
    expect(oneDay.body.data.every((r: { date: string }) => r.date === day)).toBe(true);
    const p1 = await get(`/api/v1/${name}?limit=2&offset=0`);
    const p2 = await get(`/api/v1/${name}?limit=2&offset=2`);
    expect(p1.body.meta.total).toBe(all.body.meta.total);
    expect(p2.body.data[0]).not.toEqual(p1.body.data[0]);
    expect((await get(`/api/v1/${name}?clientId=${otherClient.id}`)).body.data).toEqual([]);
    expect((await get(`/api/v1/${name}`, other.key)).body.data).toEqual([]);
  });

  it.each([
    ['/api/v1/metrics?channel=facebook', 'channel'],
    ['/api/v1/metrics?clientId=x', 'clientId'],
    ['/api/v1/metrics?brandId=-1', 'brandId'],
    ['/api/v1/metrics?startDate=2026-02-30', 'startDate'],
    ['/api/v1/metrics?endDate=01/02/2026', 'endDate'],
    ['/api/v1/metrics?startDate=2026-03-02&endDate=2026-03-01', 'endDate'],
    ['/api/v1/metrics?limit=201', 'limit'],
    ['/api/v1/metrics?offset=-1', 'offset'],
    ['/api/v1/metrics?sort=colour', 'sort'],
    ['/api/v1/metrics?order=up', 'order'],
    ['/api/v1/campaigns?channel=x', 'channel'],
    ['/api/v1/content?limit=0', 'limit'],
    ['/api/v1/audiences?sort=revenue&order=sideways', 'order'],
  ])('%s is 400 naming %s', async (url, field) => {
    const res = await get(url);
    expect(res.status).toBe(400);
    expect(fields(res)).toContain(field);
  });

  it('another organisation’s client or brand is 404; a client-bound key sees only its client', async () => {
    expect((await get(`/api/v1/metrics?clientId=${client.id}`, other.key)).status).toBe(404);
    expect((await get(`/api/v1/metrics?brandId=${brand.id}`, other.key)).status).toBe(404);
    const bound = await api.keys.create({ organizationId: org.id, scopes: ['read:metrics'], tier: 'enterprise', clientId: otherClient.id });
    expect((await get(`/api/v1/metrics`, bound.key)).body.data).toEqual([]);
    expect((await get(`/api/v1/metrics?clientId=${client.id}`, bound.key)).status).toBe(404);
    expect((await get(`/api/v1/audiences`, bound.key)).body.meta.total).toBe(0);
  });

  it('no response carried credentials', () => {
    const keyBody = account.private_key.split('\n')[1];
    for (const body of responses) {
      expect(body).not.toContain(keyBody);
      expect(body).not.toContain(account.client_email);
      expect(body).not.toContain('chc:v1:');
    }
  });
});
