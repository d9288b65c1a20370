import type { AddressInfo } from 'node:net';
import { startTestApi, type TestApi } from '../support/test-api';

/**
 * Regressions of the attack findings (issue 13 §3): each was found by sending what an attacker
 * would, and each is answered now with the contract's error object and the right status.
 */
let api: TestApi;
let org: { id: number; key: string; keyId: number };
let brand: number;

beforeAll(async () => {
  api = await startTestApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_MAX_SUBSCRIPTIONS: '3' });
  org = await api.organization();
  brand = (await api.tenancy.createBrand({ organizationId: org.id, name: 'Acme', domain: 'acme.com' })).id;
});
afterAll(async () => {
  await api?.close();
});

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__'];
const json = { 'content-type': 'application/json' };

describe('sort and order', () => {
  it.each(['/api/v1/opportunities', '/api/v1/webhooks'])('%s: a sort named like an Object.prototype member, or unknown, is 400 naming the fields', async (path) => {
    for (const sort of [...PROTOTYPE_NAMES, 'nope']) {
      const r = await api.request({ url: `${path}?sort=${encodeURIComponent(sort)}`, key: org.key });
      expect({ sort, status: r.status, code: r.body.error?.code }).toEqual({ sort, status: 400, code: 'VALIDATION_ERROR' });
      expect(r.body.error.details.fields).toEqual([{ field: 'sort', message: expect.stringMatching(/^sort must be one of: /) }]);
    }
    expect((await api.request({ url: `${path}?sort=id&order=asc`, key: org.key })).status).toBe(200);
  });

  it('takes order as exactly asc or desc', async () => {
    for (const order of ['ASC', 'Desc', 'up']) {
      const r = await api.request({ url: `/api/v1/opportunities?order=${order}`, key: org.key });
      expect([order, r.status, r.body.error.details.fields[0].field]).toEqual([order, 400, 'order']);
    }
  });
});

describe('names of Object.prototype members', () => {
  it('are unknown query parameters (400 "property X should not exist")', async () => {
    for (const name of PROTOTYPE_NAMES) {
      const r = await api.request({ url: `/api/v1/opportunities?${encodeURIComponent(name)}=1`, key: org.key });
      expect({ name, status: r.status }).toEqual({ name, status: 400 });
      expect(r.body.error.details.fields).toContainEqual({ field: name, message: `property ${name} should not exist` });
    }
  });

  it('are unknown body fields, __proto__ included (400 "property X should not exist", not "not valid JSON")', async () => {
    for (const name of PROTOTYPE_NAMES) {
      const body = `{"url":"http://127.0.0.1:9/h","events":["opportunity.opened"],${JSON.stringify(name)}:{"isAdmin":true}}`;
      const r = await api.request({ method: 'POST', url: '/api/v1/webhooks', key: org.key, body, headers: json });
      expect({ name, status: r.status }).toEqual({ name, status: 400 });
      expect(r.body.error.details.fields).toContainEqual({ field: name, message: `property ${name} should not exist` });
    }
    // Nested too, inside a free-form object.
    const nested = `{"brandId":${brand},"type":"sov_drop","severity":"low","title":"t","evidence":{"a":{"__proto__":{"polluted":1}}}}`;
    const r = await api.request({ method: 'POST', url: '/api/v1/opportunities', key: org.key, body: nested, headers: json });
    expect([r.status, r.body.error.details.fields[0]]).toEqual([400, { field: 'evidence.a.__proto__', message: 'property evidence.a.__proto__ should not exist' }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('work per request is bounded', () => {
  const manyKeys = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`;

  it('refuses a body over the key budget before validating it, with a small error', async () => {
    const started = process.hrtime.bigint();
    const r = await api.request({ method: 'POST', url: '/api/v1/webhooks', key: org.key, body: manyKeys(50_000), headers: json });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    expect([r.status, r.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(r.body.error.details.fields).toEqual([{ field: 'body', message: 'body holds more than 1000 keys and array elements' }]);
    expect(JSON.stringify(r.body).length).toBeLessThan(500);
    expect(ms).toBeLessThan(1000); // was 1.5 s of event loop; the figure is for regressions, not speed
    // Array elements count as well.
    const array = await api.request({ method: 'POST', url: '/api/v1/webhooks', key: org.key, body: `{"events":[${'"x",'.repeat(2000)}"x"]}`, headers: json });
    expect(array.body.error.details.fields[0].field).toBe('body');
  });

  it('lists at most 50 field problems, with their count', async () => {
    const r = await api.request({ method: 'POST', url: '/api/v1/webhooks', key: org.key, body: manyKeys(600), headers: json });
    expect(r.status).toBe(400);
    expect(r.body.error.details.fields).toHaveLength(50);
    expect(r.body.error.details.fieldCount).toBeGreaterThanOrEqual(600);
  });

  it('keeps /health under 200 ms while 8 such bodies arrive at once (over a socket)', async () => {
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
    const body = manyKeys(50_000);
    const health = async () => {
      const t = process.hrtime.bigint();
      expect((await fetch(`${base}/health`)).status).toBe(200);
      return Number(process.hrtime.bigint() - t) / 1e6;
    };
    await health(); // warm: connection pool, route
    // Up to three rounds of 8 floods with 5 probes each; the best round's slowest probe must be under
    // 200 ms. A server that parses the flood on its event loop (1.5 s before the fix) fails every
    // round; a round slowed by the other test worker's processes on this 2-core machine (66 ms seen
    // in a full CI run, so 50 ms was a speed figure, not a regression check) does not.
    const rounds: number[] = [];
    for (let round = 0; round < 3 && !(rounds.length && Math.min(...rounds) < 200); round++) {
      const floods = Array.from({ length: 8 }, () => fetch(`${base}/api/v1/webhooks`, { method: 'POST', headers: { ...json, 'x-api-key': org.key }, body }).then((r) => r.status));
      const timings: number[] = [];
      for (let i = 0; i < 5; i++) timings.push(await health());
      expect(await Promise.all(floods)).toEqual(Array(8).fill(400));
      rounds.push(Math.max(...timings));
    }
    expect(Math.min(...rounds)).toBeLessThan(200);
  });
});

describe('credentials', () => {
  it('never takes an API key as a bearer token, or a token as an API key, even while cached', async () => {
    expect((await api.request({ url: '/api/v1/brands', key: org.key })).status).toBe(200); // cached now
    expect((await api.request({ url: '/api/v1/brands', bearer: org.key })).status).toBe(401);
    const { OAuthClientsRepository } = await import('@libs/auth');
    const client = await new OAuthClientsRepository(api.dataSource).create({ organizationId: org.id, scopes: ['read:brands'], redirectUris: ['https://app.example.com/cb'], name: 'App' });
    const token = await api.request({ method: 'POST', url: '/api/oauth/token', body: { grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret } });
    expect(token.status).toBe(200);
    expect((await api.request({ url: '/api/v1/brands', bearer: token.body.access_token })).status).toBe(200); // cached now
    expect((await api.request({ url: '/api/v1/brands', key: token.body.access_token })).status).toBe(401);
  });

  it('shows a client-bound key its own usage only; other keys are 404', async () => {
    const c = await api.tenancy.createClient(org.id, 'Client U');
    const bound = await api.keys.create({ organizationId: org.id, scopes: ['read:usage', 'read:brands'], clientId: c.id });
    await api.request({ url: '/api/v1/brands', key: bound.key });
    await api.request({ url: '/api/v1/brands', key: org.key });
    const flushed = async () => {
      const r = await api.request({ url: '/api/v1/usage', key: org.key });
      return r.body.data.credentials.length >= 2;
    };
    const { until } = await import('../support/until');
    await until(flushed, 10_000, 'usage flushed');
    const own = await api.request({ url: '/api/v1/usage', key: bound.key });
    expect(own.status).toBe(200);
    expect(own.body.data.credentials.map((x: { subject: string }) => x.subject)).toEqual([`key:${bound.id}`]);
    expect((await api.request({ url: `/api/v1/usage/keys/${org.keyId}`, key: bound.key })).status).toBe(404);
    expect((await api.request({ url: `/api/v1/usage/keys/${bound.id}`, key: bound.key })).status).toBe(200);
    expect((await api.request({ url: `/api/v1/usage/keys/${bound.id}`, key: org.key })).status).toBe(200);
  });
});

describe('null where a field is not nullable', () => {
  it('is 400 naming the field, on create and on detect', async () => {
    const base = { url: 'http://127.0.0.1:9/h', events: ['opportunity.opened'] };
    for (const field of ['isActive', 'headers', 'description']) {
      const r = await api.request({ method: 'POST', url: '/api/v1/webhooks', key: org.key, body: { ...base, [field]: null } });
      expect({ field, status: r.status, fields: [...new Set(r.body.error.details.fields.map((f: { field: string }) => f.field))] }).toEqual({ field, status: 400, fields: [field] });
    }
    const opportunity = { brandId: brand, type: 'sov_drop', severity: 'low', title: 'Null checks' };
    for (const field of ['evidence', 'description', 'fingerprint']) {
      const r = await api.request({ method: 'POST', url: '/api/v1/opportunities', key: org.key, body: { ...opportunity, [field]: null } });
      expect({ field, status: r.status, fields: [...new Set(r.body.error.details.fields.map((f: { field: string }) => f.field))] }).toEqual({ field, status: 400, fields: [field] });
    }
  });
});

describe('webhook subscriptions', () => {
  it('keep secrets and header values sealed at rest, and stop at the organisation limit with 409', async () => {
    const other = await api.organization();
    const created = await api.request({
      method: 'POST',
      url: '/api/v1/webhooks',
      key: other.key,
      body: { url: 'http://127.0.0.1:9/h', events: ['opportunity.opened'], headers: { Authorization: 'Bearer very-secret-value' } },
    });
    expect(created.status).toBe(201);
    const [row] = await api.dataSource.query(`SELECT secret, headers FROM webhooks WHERE id = $1`, [created.body.data.id]);
    expect(row.secret).toMatch(/^enc:v1:/);
    expect(row.secret).not.toContain(created.body.data.secret.slice('whsec_'.length));
    expect(row.headers.Authorization).toMatch(/^enc:v1:/);
    expect(JSON.stringify(row)).not.toContain('very-secret-value');
    for (let i = 0; i < 2; i++) {
      expect((await api.request({ method: 'POST', url: '/api/v1/webhooks', key: other.key, body: { url: `http://127.0.0.1:9/h${i}`, events: ['opportunity.opened'] } })).status).toBe(201);
    }
    const full = await api.request({ method: 'POST', url: '/api/v1/webhooks', key: other.key, body: { url: 'http://127.0.0.1:9/h9', events: ['opportunity.opened'] } });
    expect([full.status, full.body.error.code, full.body.error.details]).toEqual([409, 'CONFLICT', { limit: 3 }]);
  });

  it('never pass the limit when creates race', async () => {
    const other = await api.organization();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => api.request({ method: 'POST', url: '/api/v1/webhooks', key: other.key, body: { url: `http://127.0.0.1:9/r${i}`, events: ['opportunity.opened'] } })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 409)).toHaveLength(5);
  });
});

describe('the OpenAPI document agrees with behaviour', () => {
  it('types integers as integers with their bounds, every sort and order as an enum, and lists 404/408/413/415/431 where they happen', async () => {
    const doc = (await api.request({ url: '/api/v1/openapi.json' })).body;
    const ops = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op }))); // eslint-disable-line @typescript-eslint/no-explicit-any
    const param = (path: string, name: string) => ops.find((o) => o.path === path && o.method === 'get')!.op.parameters.find((p: { name: string }) => p.name === name).schema;
    expect(param('/api/v1/opportunities', 'limit')).toMatchObject({ type: 'integer', minimum: 1, maximum: 200 });
    expect(param('/api/v1/opportunities', 'offset')).toMatchObject({ type: 'integer', minimum: 0, maximum: 1_000_000_000 });
    expect(param('/api/v1/usage', 'days')).toMatchObject({ type: 'integer', minimum: 1, maximum: 365 });
    expect(param('/api/v1/outcomes/_summary', 'sinceDays')).toMatchObject({ type: 'integer', minimum: 1, maximum: 365 });
    for (const { path, method, op } of ops) {
      for (const p of op.parameters ?? []) {
        if (p.name === 'sort') expect({ path, enum: Array.isArray(p.schema.enum) }).toEqual({ path, enum: true });
        if (p.name === 'order') expect({ path, enum: p.schema.enum }).toEqual({ path, enum: ['asc', 'desc'] });
        if (p.schema?.type === 'number') throw new Error(`${method} ${path} ${p.name} is typed number`);
      }
      expect({ path, method, has408: '408' in op.responses, has431: '431' in op.responses }).toEqual({ path, method, has408: true, has431: true });
      if (op.requestBody) expect({ path, method, has413: '413' in op.responses, has415: '415' in op.responses }).toEqual({ path, method, has413: true, has415: true });
      if ((op.parameters ?? []).some((p: { name: string }) => p.name === 'brandId')) expect({ path, method, has404: '404' in op.responses }).toEqual({ path, method, has404: true });
    }
    for (const url of ['/api/v1/opportunities?brandId=999999', '/api/v1/opportunities/_summary/kpis?brandId=999999', '/api/v1/outcomes/_summary?brandId=999999', '/api/v1/brands?clientId=999999']) {
      const r = await api.request({ url, key: org.key });
      expect([url, r.status, r.body.error.code]).toEqual([url, 404, 'NOT_FOUND']);
    }
  });
});
