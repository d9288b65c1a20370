import { randomBytes, randomUUID } from 'node:crypto';
import { ALL_SCOPES, ApiKeysRepository, type Scope } from '@libs/auth';
import { createDataSource } from '@libs/database';
import { addDays, utcDay } from '@libs/metrics';
import { TenancyRepository } from '@libs/tenancy';
import type { DataSource } from 'typeorm';
import { newServiceAccount } from '../support/fake-google';
import { exited, freePort, startApp, until } from '../support/processes';
import { createTestDatabase, testRedisPrefix, type TestDatabase } from '../support/test-database';

/**
 * The outside probe of issue 28, replayed: its requests for items 4, 6, 7, 8, 10 and 12, sent as
 * it sent them, over HTTP to the API running as a real process (JSON logs at info, read back for
 * items 6 and 12). A second API process runs without CHANNEL_CREDENTIALS_KEY for item 12.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Process = ReturnType<typeof startApp>;

let db: TestDatabase;
let ds: DataSource;
let api: Process;
let keyless: Process;
let base: string;
let keylessBase: string;
let tenancy: TenancyRepository;
let keys: ApiKeysRepository;
let org: { id: number };
let orgKey: string;
const today = utcDay(Date.now());

const env = (p: string, extra: Record<string, string> = {}) => ({
  DATABASE_URL: db.url,
  REDIS_PREFIX: testRedisPrefix(),
  PORT: p,
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  LOG_FORMAT: 'json',
  // Nothing leaves the machine: no DNS checks, no robots.txt, Google's addresses on a closed local port.
  AGENT_DNS_SERVERS: 'off',
  AGENT_ROBOTS_URL_TEMPLATE: 'off',
  GA4_DATA_API_URL: 'http://127.0.0.1:9',
  SEARCH_CONSOLE_API_URL: 'http://127.0.0.1:9',
  GOOGLE_TOKEN_URL: 'http://127.0.0.1:9/token',
  ...extra,
});

async function call(at: string, method: string, path: string, opts: { key?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; body: Json; headers: Headers }> {
  const headers: Record<string, string> = { ...(opts.key ? { 'x-api-key': opts.key } : {}), ...opts.headers };
  let body: string | undefined = opts.raw;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  } else if (body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(`${at}${path}`, { method, headers, body });
  const text = await res.text();
  const parse = (): Json => {
    try {
      return text ? (JSON.parse(text) as Json) : {};
    } catch {
      return { text };
    }
  };
  return { status: res.status, body: parse(), headers: res.headers };
}
const req = (method: string, path: string, opts: Parameters<typeof call>[3] = {}) => call(base, method, path, { key: orgKey, ...opts });
const fieldsOf = (r: { body: Json }) => ((r.body.error?.details?.fields ?? []) as { field: string }[]).map((f) => f.field);

async function keyFor(opts: { clientId?: number; scopes?: Scope[] } = {}): Promise<string> {
  return (await keys.create({ organizationId: org.id, scopes: opts.scopes ?? [...ALL_SCOPES], tier: 'enterprise', clientId: opts.clientId ?? null })).key;
}

beforeAll(async () => {
  db = await createTestDatabase();
  ds = await createDataSource(db.url, 2).initialize();
  tenancy = new TenancyRepository(ds);
  keys = new ApiKeysRepository(ds);
  org = await tenancy.createOrganization('Probe', 'enterprise');
  orgKey = await keyFor();
  const [p1, p2] = [String(await freePort()), String(await freePort())];
  api = startApp('api', env(p1, { CHANNEL_CREDENTIALS_KEY: randomBytes(32).toString('base64') }));
  keyless = startApp('api', env(p2));
  base = `http://127.0.0.1:${p1}`;
  keylessBase = `http://127.0.0.1:${p2}`;
  const listening = (at: string, child: Process) => async () => {
    if (child.exitCode !== null) throw new Error(`the API exited before listening:\n${child.output()}`);
    return (await fetch(`${at}/health`).catch(() => null))?.ok === true;
  };
  await Promise.all([until(listening(base, api), 90_000, 'the API'), until(listening(keylessBase, keyless), 90_000, 'the API without CHANNEL_CREDENTIALS_KEY')]);
}, 120_000);

afterAll(async () => {
  for (const child of [api, keyless]) child?.kill('SIGTERM');
  await Promise.all([api, keyless].filter(Boolean).map((c) => exited(c)));
  await ds?.destroy();
  await db?.drop();
});

describe('item 4: null in PATCH /channels/{id}', () => {
  let client: { id: number };
  let brand: { id: number };
  let ga4: Json;
  let console_: Json;

  beforeAll(async () => {
    client = await tenancy.createClient(org.id, 'Client 4');
    brand = await tenancy.createBrand({ organizationId: org.id, clientId: client.id, name: 'Four', domain: 'four.example' });
    const credentials = newServiceAccount();
    const created = await req('POST', '/api/v1/channels', { body: { clientId: client.id, kind: 'ga4', name: 'GA4', propertyId: '42', credentials, brandId: brand.id } });
    expect(created.status).toBe(201);
    ga4 = created.body.data;
    const sc = await req('POST', '/api/v1/channels', { body: { clientId: client.id, kind: 'search_console', name: 'SC', siteUrl: 'sc-domain:four.example', credentials } });
    expect(sc.status).toBe(201);
    console_ = sc.body.data;
  });

  it.each(['name', 'isActive', 'backfillDays', 'propertyId', 'siteUrl', 'credentials'])('%s: null is 400 naming it, and the channel is unchanged', async (field) => {
    for (const channel of [ga4, console_]) {
      const res = await req('PATCH', `/api/v1/channels/${channel.id}`, { body: { [field]: null } });
      expect({ field, status: res.status, code: res.body.error?.code }).toEqual({ field, status: 400, code: 'VALIDATION_ERROR' });
      expect(fieldsOf(res)).toContain(field);
      const now = await req('GET', `/api/v1/channels/${channel.id}`);
      expect(now.body.data).toMatchObject({ name: channel.name, propertyId: channel.propertyId, siteUrl: channel.siteUrl, isActive: channel.isActive, backfillDays: channel.backfillDays, hasCredentials: true });
    }
  });

  it('brandId: null detaches the brand (the one field that may be cleared)', async () => {
    const res = await req('PATCH', `/api/v1/channels/${ga4.id}`, { body: { brandId: null } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: ga4.id, brandId: null, name: 'GA4', propertyId: '42' });
  });
});

describe('item 6: credentials in URLs are refused and never logged', () => {
  it('an API key in the query string is 401, and the log holds it redacted', async () => {
    const secrets = { api_key: orgKey, token: `tok_${randomUUID()}`, access_token: `at_${randomUUID()}`, key: `k_${randomUUID()}`, code: `c_${randomUUID()}` };
    for (const [name, value] of Object.entries(secrets)) {
      const res = await call(base, 'GET', `/api/v1/brands?${name}=${encodeURIComponent(value)}&clientId=1`);
      expect({ name, status: res.status, code: res.body.error?.code }).toEqual({ name, status: 401, code: 'UNAUTHORIZED' });
    }
    // A public route logged at info: the reference page's OAuth redirect carries a code.
    expect((await call(base, 'GET', `/docs/oauth2-redirect.html?code=${secrets.code}&state=s`)).status).toBe(200);
    await until(() => api.output().includes('oauth2-redirect.html?code='), 10_000, 'the request lines');
    const output = api.output();
    for (const value of Object.values(secrets)) expect(output).not.toContain(value);
    for (const name of Object.keys(secrets)) expect(output).toContain(`/api/v1/brands?${name}=[REDACTED]&clientId=1`);
    expect(output).toContain('oauth2-redirect.html?code=[REDACTED]&state=s');
  });
});

describe('item 7: an Idempotency-Key belongs to the credential that sent it', () => {
  const GPT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
  const visit = (host: string, path: string) => ({ timestamp: `${addDays(today, -1)}T10:00:00Z`, method: 'GET', host, path, status: 200, ip: '192.0.2.10', userAgent: GPT });
  const ingest = (key: string, body: unknown, idempotencyKey: string) => req('POST', '/api/v1/agent-analytics/ingest', { key, body, headers: { 'idempotency-key': idempotencyKey } });

  it('agent ingest: client 3 reusing client 1 key gets no replay of client 1 batch, and its own batch is stored', async () => {
    const c1 = await tenancy.createClient(org.id, 'Client 1');
    const c3 = await tenancy.createClient(org.id, 'Client 3');
    await tenancy.createBrand({ organizationId: org.id, clientId: c1.id, name: 'One', domain: 'one.example' });
    await tenancy.createBrand({ organizationId: org.id, clientId: c3.id, name: 'Three', domain: 'three.example' });
    const [k1, k3] = [await keyFor({ clientId: c1.id }), await keyFor({ clientId: c3.id })];
    const batch1 = [visit('www.one.example', '/probe-7-one'), visit('www.one.example', '/probe-7-one-b')];
    const first = await ingest(k1, batch1, 'batch-7');
    expect(first.status).toBe(202);
    expect(first.body.data.botVisits).toBe(2);
    // The same bytes under the same key from client 3: its own batch, answered for itself.
    const sameBody = await ingest(k3, batch1, 'batch-7');
    expect(sameBody.status).toBe(202);
    expect(sameBody.headers.get('idempotent-replayed')).toBeNull();
    // Another batch of client 3 under the key client 3 has now used: 409 for client 3 only.
    expect((await ingest(k3, [visit('www.three.example', '/probe-7-three')], 'batch-7')).status).toBe(409);
    const own = await ingest(k3, [visit('www.three.example', '/probe-7-three')], 'batch-7b');
    expect([own.status, own.headers.get('idempotent-replayed')]).toEqual([202, null]);
    expect(own.body.data.botVisits).toBe(1);
    // Client 1's replay is still client 1's.
    const again = await ingest(k1, batch1, 'batch-7');
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([202, 'true']);
    expect(again.body).toEqual(first.body);
    expect((await ingest(k1, [visit('www.one.example', '/other')], 'batch-7')).status).toBe(409);
    const seen = await req('GET', '/api/v1/agent-analytics/visits?url=/probe-7-three', { key: k3 });
    expect(seen.body.meta.total).toBe(1);
  });

  it('imports: two credentials of one channel each have their own keys', async () => {
    const client = await tenancy.createClient(org.id, 'Client 7');
    const brand = await tenancy.createBrand({ organizationId: org.id, clientId: client.id, name: 'Seven', domain: 'seven.example' });
    const channel = (await req('POST', '/api/v1/channels', { body: { clientId: client.id, kind: 'import', name: 'Uploads', brandId: brand.id } })).body.data;
    const bound = await keyFor({ clientId: client.id });
    const upload = (key: string, csv: string) => req('POST', `/api/v1/channels/${channel.id}/imports`, { key, raw: csv, headers: { 'content-type': 'text/csv', 'idempotency-key': 'upload-7' } });
    const fileA = `date,sessions\n${addDays(today, -3)},10\n`;
    const fileB = `date,sessions\n${addDays(today, -2)},20\n`;
    const a = await upload(orgKey, fileA);
    expect([a.status, a.body.data.replayed]).toEqual([201, false]);
    const b = await upload(bound, fileB);
    expect([b.status, b.body.data.replayed, b.body.data.startDate]).toEqual([201, false, addDays(today, -2)]);
    expect((await upload(bound, fileB)).body.data).toEqual({ ...b.body.data, replayed: true });
    expect((await upload(orgKey, fileA)).body.data).toEqual({ ...a.body.data, replayed: true });
    expect((await upload(bound, fileA)).status).toBe(409);
  });
});

describe('item 8: PUT /brands/{id}/facts', () => {
  it('a null body (or any body that is not an object) is 400 and clears nothing; null in a nullable field clears only it', async () => {
    const brand = await tenancy.createBrand({ organizationId: org.id, name: 'Eight', domain: 'eight.example' });
    const facts = { foundedYear: 2012, headquarters: 'Berlin', startingPrice: { amount: 9.5, currency: 'EUR' }, productNames: ['Eight One'] };
    expect((await req('PUT', `/api/v1/brands/${brand.id}/facts`, { body: facts })).status).toBe(200);
    for (const raw of ['null', '[]', '"facts"', '0']) {
      const res = await req('PUT', `/api/v1/brands/${brand.id}/facts`, { raw });
      expect({ raw, status: res.status, fields: fieldsOf(res) }).toEqual({ raw, status: 400, fields: ['body'] });
    }
    expect((await req('GET', `/api/v1/brands/${brand.id}/facts`)).body.data.facts).toEqual(facts);
    const cleared = await req('PUT', `/api/v1/brands/${brand.id}/facts`, { body: { ...facts, headquarters: null } });
    expect(cleared.body.data.facts).toEqual({ ...facts, headquarters: null });
    const notNullable = await req('PUT', `/api/v1/brands/${brand.id}/facts`, { body: { ...facts, productNames: null } });
    expect([notNullable.status, [...new Set(fieldsOf(notNullable))]]).toEqual([400, ['productNames']]);
  });
});

describe('item 10: query parameters and date bounds', () => {
  it('GET routes without a query definition refuse unknown parameters, __proto__ included', async () => {
    const brand = await tenancy.createBrand({ organizationId: org.id, name: 'Ten', domain: 'ten.example' });
    for (const path of [`/api/v1/brands/${brand.id}`, `/api/v1/brands/${brand.id}/competitors`, `/api/v1/brands/${brand.id}/facts`, '/api/v1/webhooks/events']) {
      for (const name of ['__proto__', 'constructor', 'debug']) {
        const res = await req('GET', `${path}?${name}=1`);
        expect({ path, name, status: res.status, fields: fieldsOf(res) }).toEqual({ path, name, status: 400, fields: [name] });
      }
      expect((await req('GET', path)).status).toBe(200);
    }
  });

  it('/analysis-results takes at most 366 days from startDate to endDate', async () => {
    const end = today;
    const ok = await req('GET', `/api/v1/analysis-results?startDate=${addDays(end, -365)}&endDate=${end}`);
    expect(ok.status).toBe(200);
    for (const start of [addDays(end, -366), '1900-01-01']) {
      const res = await req('GET', `/api/v1/analysis-results?startDate=${start}&endDate=${end}`);
      expect([res.status, res.body.error?.details?.fields]).toEqual([400, [{ field: 'endDate', message: 'the period from startDate to endDate must be at most 366 days' }]]);
    }
  });

  it('imports refuse rows dated before 2000-01-01 or after tomorrow, naming each', async () => {
    const client = await tenancy.createClient(org.id, 'Client 10');
    const channel = (await req('POST', '/api/v1/channels', { body: { clientId: client.id, kind: 'import', name: 'Uploads' } })).body.data;
    const upload = (csv: string) => req('POST', `/api/v1/channels/${channel.id}/imports`, { raw: csv, headers: { 'content-type': 'text/csv' } });
    const tomorrow = addDays(today, 1);
    const bad = await upload(`date,sessions\n1900-01-01,1\n9999-12-31,2\n${today},3\n1999-12-31,4\n${addDays(today, 2)},5\n`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields).toEqual(
      ['rows[2].date', 'rows[3].date', 'rows[5].date', 'rows[6].date'].map((field) => ({ field, message: `line ${field.slice(5, 6)}: date must be from 2000-01-01 to ${tomorrow}` })),
    );
    const good = await upload(`date,sessions\n2000-01-01,1\n${tomorrow},2\n`);
    expect([good.status, good.body.data.rows, good.body.data.startDate, good.body.data.endDate]).toEqual([201, 2, '2000-01-01', tomorrow]);
  });
});

describe('item 12: creating a ga4 channel without CHANNEL_CREDENTIALS_KEY', () => {
  it('answers the documented 503 and logs one line, without a stack', async () => {
    const client = await tenancy.createClient(org.id, 'Client 12');
    const requestId = `probe-12-${randomUUID()}`;
    const res = await call(keylessBase, 'POST', '/api/v1/channels', {
      key: orgKey,
      body: { clientId: client.id, kind: 'ga4', name: 'GA4', propertyId: '42', credentials: newServiceAccount() },
      headers: { 'x-request-id': requestId },
    });
    expect([res.status, res.body.error?.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    await until(() => keyless.output().includes(requestId), 10_000, 'the request line');
    const lines = keyless.output().split('\n').filter((l) => l.includes(requestId));
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]) as Json;
    expect(line).toMatchObject({ level: 50, res: { statusCode: 503 }, error: { code: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('CHANNEL_CREDENTIALS_KEY') } });
    expect(keyless.output()).not.toMatch(/unhandled error|"stack"|\n\s+at /);
  });
});
