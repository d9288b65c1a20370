import { SwaggerModule, DocumentBuilder } from '@nestjs/swagger';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApiApp } from '../../apps/api/src/create-api-app';
import { UsageRecorder } from '@libs/usage';
import { until } from '../support/processes';
import { startTestApi, type TestApi } from '../support/test-api';
import { USAGE_CONFIG } from '@libs/usage';

/** API usage: counted per credential, route, method, status class and day; written in batches; reported per organisation and key. */
let api: TestApi;
beforeAll(async () => {
  // Free keys get 3 requests a minute here, so a 429 is quick to reach; flushes are left to the test (a long interval).
  api = await startTestApi({ RATE_LIMIT_TIERS: '{"free":{"perMinute":1,"burst":2}}', USAGE_FLUSH_MS: '600000' });
});
afterAll(async () => {
  await api?.close();
});

const flush = () => api.app.get(UsageRecorder).flush();
const today = () => new Date().toISOString().slice(0, 10);

describe('usage', () => {
  let org: { id: number; key: string; keyId: number };
  let second: { id: number; key: string };
  let other: { id: number; key: string; keyId: number };

  beforeAll(async () => {
    org = await api.organization();
    const created = await api.keys.create({ organizationId: org.id, scopes: ['read:brands'], tier: 'enterprise' });
    second = { id: created.id, key: created.key };
    other = await api.organization();
    await flush();
  });

  it('counts every authenticated request, with an endpoint breakdown, error counts and latency percentiles', async () => {
    for (let i = 0; i < 3; i++) expect((await api.request({ method: 'POST', url: '/api/v1/validate-key', key: org.key })).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await api.request({ url: '/api/v1/brands', key: org.key })).status).toBe(200);
    expect((await api.request({ url: '/api/v1/brands/987654', key: org.key })).status).toBe(404);
    for (let i = 0; i < 2; i++) expect((await api.request({ url: '/api/v1/brands', key: second.key })).status).toBe(200);
    // Refused by authentication: not counted (there is no credential to count it against).
    expect((await api.request({ url: '/api/v1/brands', key: 'ak_live_garbage' })).status).toBe(401);
    await flush();

    const r = await api.request({ url: '/api/v1/usage?days=7', key: org.key });
    expect(r.status).toBe(200);
    const u = r.body.data;
    expect(u).toMatchObject({ days: 7, to: today(), totals: { requests: 8, errors: 1 } });
    expect(u.daily).toHaveLength(7);
    expect(u.daily[6]).toEqual({ date: today(), requests: 8, errors: 1 });
    expect(u.daily.slice(0, 6).every((d: { requests: number }) => d.requests === 0)).toBe(true);
    const byRoute = Object.fromEntries(u.endpoints.map((e: { method: string; route: string }) => [`${e.method} ${e.route}`, e]));
    expect(byRoute['POST /api/v1/validate-key']).toMatchObject({ requests: 3, errors: 0 });
    expect(byRoute['GET /api/v1/brands']).toMatchObject({ requests: 4, errors: 0 });
    expect(byRoute['GET /api/v1/brands/:id']).toMatchObject({ requests: 1, errors: 1 });
    for (const e of u.endpoints) {
      expect(e.latencyMs.p50).toEqual(expect.any(Number));
      expect(e.latencyMs.p50).toBeLessThanOrEqual(e.latencyMs.p95);
      expect(e.latencyMs.p95).toBeLessThanOrEqual(e.latencyMs.p99);
    }
    expect(u.credentials).toEqual([
      { subject: `key:${org.keyId}`, keyId: org.keyId, requests: 6, errors: 1 },
      { subject: `key:${second.id}`, keyId: second.id, requests: 2, errors: 0 },
    ]);

    // The usage request itself is counted too, once written.
    await flush();
    const again = await api.request({ url: '/api/v1/usage', key: org.key });
    expect(again.body.data).toMatchObject({ days: 30, totals: { requests: 9 } });
    expect(again.body.data.daily).toHaveLength(30);

    // Another organisation sees only its own.
    const theirs = await api.request({ url: '/api/v1/usage', key: other.key });
    expect(theirs.body.data.totals.requests).toBe(0);
    expect(theirs.body.data.endpoints).toEqual([]);
  });

  it('counts requests refused by the rate limit', async () => {
    const free = await api.organization({ tier: 'free' });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await api.request({ method: 'POST', url: '/api/v1/validate-key', key: free.key })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    await flush();
    const enterprise = await api.keys.create({ organizationId: free.id, scopes: ['read:usage'], tier: 'enterprise' });
    const r = await api.request({ url: `/api/v1/usage/keys/${free.keyId}?days=1`, key: enterprise.key });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ keyId: free.keyId, from: today(), to: today(), days: 1, totals: { requests: 4, errors: 1 }, daily: [{ date: today(), requests: 4, errors: 1 }] });
  });

  it("reports one key's daily counts, 404 for another organisation's key and 400 for a bad id", async () => {
    await flush();
    const mine = await api.request({ url: `/api/v1/usage/keys/${second.id}`, key: org.key });
    expect(mine.status).toBe(200);
    expect(mine.body.data).toMatchObject({ keyId: second.id, days: 30, totals: { requests: 2, errors: 0 } });
    expect(mine.body.data.daily).toHaveLength(30);
    expect(mine.body.data.daily[29]).toEqual({ date: today(), requests: 2, errors: 0 });

    const foreign = await api.request({ url: `/api/v1/usage/keys/${other.keyId}`, key: org.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
    expect((await api.request({ url: '/api/v1/usage/keys/987654321', key: org.key })).status).toBe(404);
    for (const id of ['abc', '1.5', '0', '-2']) {
      const bad = await api.request({ url: `/api/v1/usage/keys/${id}`, key: org.key });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [expect.objectContaining({ field: 'keyId' })] } });
    }
  });

  it('answers 400 for days out of range or not an integer', async () => {
    for (const days of ['0', '366', '-1', 'abc', '1.5', '']) {
      for (const url of [`/api/v1/usage?days=${days}`, `/api/v1/usage/keys/${org.keyId}?days=${days}`]) {
        const r = await api.request({ url, key: org.key });
        expect(r.status).toBe(400);
        expect(r.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [expect.objectContaining({ field: 'days' })] } });
      }
    }
    expect((await api.request({ url: '/api/v1/usage?days=365', key: org.key })).status).toBe(200);
    expect((await api.request({ url: '/api/v1/usage?days=1', key: org.key })).status).toBe(200);
  });

  it('needs the read:usage scope', async () => {
    const r = await api.request({ url: '/api/v1/usage', key: second.key });
    expect(r.status).toBe(403);
    expect(r.body.error.details.required).toBe('read:usage');
  });

  it('writes on its own every USAGE_FLUSH_MS, and what is left at shutdown', async () => {
    const fresh = await api.organization();
    // Another replica on the same database, flushing every 50 ms.
    const replica: NestFastifyApplication = await createApiApp({ ...api.config, sections: new Map([...api.config.sections, [USAGE_CONFIG.token, { usageFlushMs: 50 }]]) });
    await replica.init();
    await replica.getHttpAdapter().getInstance().ready();
    const count = async () =>
      Number((await api.dataSource.query(`SELECT coalesce(sum(requests), 0) AS n FROM api_usage_daily WHERE organization_id = $1`, [fresh.id]))[0].n);
    try {
      for (let i = 0; i < 5; i++) await replica.inject({ method: 'POST', url: '/api/v1/validate-key', headers: { 'x-api-key': fresh.key } });
      await until(async () => (await count()) === 5, 5000, 'the timed flush');
      // Counted just before shutdown: written by the shutdown flush, not lost.
      await replica.inject({ method: 'POST', url: '/api/v1/validate-key', headers: { 'x-api-key': fresh.key } });
    } finally {
      await replica.close();
    }
    expect(await count()).toBe(6);
    const rows = await api.dataSource.query(`SELECT organization_id, subject, route, method, status_class FROM api_usage_daily WHERE organization_id = $1`, [fresh.id]);
    expect(rows).toEqual([{ organization_id: String(fresh.id), subject: `key:${fresh.keyId}`, route: '/api/v1/validate-key', method: 'POST', status_class: '2xx' }]);
  });

  it('is described in the OpenAPI document', () => {
    const doc = SwaggerModule.createDocument(api.app, new DocumentBuilder().setTitle('t').setVersion('1.0.0').build());
    const usage = doc.paths['/api/v1/usage']?.get;
    expect(usage?.tags).toContain('Usage and key validation');
    expect(usage?.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'days', in: 'query' })]));
    expect(JSON.stringify(usage?.responses['200'])).toContain('UsageStatisticsResponse');
    const key = doc.paths['/api/v1/usage/keys/{keyId}']?.get;
    expect(key?.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'keyId', in: 'path' })]));
    expect(Object.keys(key?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '404']));
    const schemas = doc.components?.schemas ?? {};
    expect(Object.keys((schemas.EndpointUsageDto as { properties: object }).properties)).toEqual(['method', 'route', 'requests', 'errors', 'latencyMs']);
  });
});
