import { startTestApi, type TestApi } from '../support/test-api';
import { until } from '../support/processes';

/** Tenancy and API keys over HTTP: who sees which brand, and which keys are refused. */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

describe('brands and API keys', () => {
  let org: { id: number; key: string; keyId: number };
  let other: { id: number; key: string; keyId: number };
  let brandA: number;
  let brandB: number;
  let clientA: number;

  beforeAll(async () => {
    org = await api.organization();
    other = await api.organization();
    clientA = (await api.tenancy.createClient(org.id, 'Client A')).id;
    const clientB = (await api.tenancy.createClient(org.id, 'Client B')).id;
    brandA = (await api.tenancy.createBrand({ organizationId: org.id, clientId: clientA, name: 'Acme', domain: 'acme.com', competitors: [{ name: 'Globex', domain: 'globex.com' }] })).id;
    brandB = (await api.tenancy.createBrand({ organizationId: org.id, clientId: clientB, name: 'Initech', domain: 'https://www.initech.com/' })).id;
  });

  it("lists the organisation's brands, and filters by client", async () => {
    const all = await api.request({ url: '/api/v1/brands', key: org.key });
    expect(all.status).toBe(200);
    expect(all.body.data.map((b: { id: number }) => b.id)).toEqual([brandA, brandB]);
    expect(all.body.data[1].domain).toBe('initech.com');
    const onlyA = await api.request({ url: `/api/v1/brands?clientId=${clientA}`, key: org.key });
    expect(onlyA.body.data.map((b: { id: number }) => b.id)).toEqual([brandA]);
    expect((await api.request({ url: '/api/v1/brands', key: other.key })).body.data).toEqual([]);
  });

  it("answers 404 for another organisation's brand, never 403 or 200", async () => {
    expect((await api.request({ url: `/api/v1/brands/${brandA}`, key: org.key })).status).toBe(200);
    const foreign = await api.request({ url: `/api/v1/brands/${brandA}`, key: other.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: { code: 'NOT_FOUND', message: `Brand ${brandA} not found` } });
    expect((await api.request({ url: `/api/v1/brands/${brandA}/competitors`, key: other.key })).status).toBe(404);
    const competitors = await api.request({ url: `/api/v1/brands/${brandA}/competitors`, key: org.key });
    expect(competitors.body.data).toEqual([expect.objectContaining({ name: 'Globex', domain: 'globex.com', brandId: brandA })]);
  });

  it("a client-bound key sees that client's brands only", async () => {
    const bound = await api.keys.create({ organizationId: org.id, scopes: ['read:brands'], clientId: clientA });
    const list = await api.request({ url: '/api/v1/brands', key: bound.key });
    expect(list.body.data.map((b: { id: number }) => b.id)).toEqual([brandA]);
    expect((await api.request({ url: `/api/v1/brands/${brandB}`, key: bound.key })).status).toBe(404);
    expect((await api.request({ url: `/api/v1/brands/${brandB}/competitors`, key: bound.key })).status).toBe(404);
    const validated = await api.request({ method: 'POST', url: '/api/v1/validate-key', key: bound.key });
    expect(validated.body).toEqual({ data: { valid: true, organizationId: org.id, scopes: ['read:brands'], tier: 'enterprise', clientId: clientA } });
  });

  it('refuses missing, garbage, revoked and expired keys with 401 and the error object', async () => {
    const missing = await api.request({ method: 'POST', url: '/api/v1/validate-key' });
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe('UNAUTHORIZED');
    for (const key of ['garbage', 'ak_live_' + 'A'.repeat(39), org.key.slice(0, -1) + (org.key.endsWith('a') ? 'b' : 'a')]) {
      const r = await api.request({ method: 'POST', url: '/api/v1/validate-key', key });
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe('UNAUTHORIZED');
    }
    const revoked = await api.keys.create({ organizationId: org.id, scopes: ['read:brands'] });
    expect((await api.request({ method: 'POST', url: '/api/v1/validate-key', key: revoked.key })).status).toBe(200);
    await api.keys.revoke(revoked.id);
    const { publishRevocation } = await import('@libs/auth');
    const { Redis } = await import('ioredis');
    const redis = new Redis(api.config.redisUrl);
    const { sha256 } = await import('@libs/auth');
    await publishRevocation(redis, api.config.redisPrefix, sha256(revoked.key));
    redis.disconnect();
    // The notice travels through Redis pub/sub: refused within a second, well before the cache's 5 s TTL.
    await until(async () => (await api.request({ method: 'POST', url: '/api/v1/validate-key', key: revoked.key })).status === 401, 1000, 'the revocation notice');
    const expired = await api.keys.create({ organizationId: org.id, scopes: ['read:brands'], expiresAt: new Date(Date.now() + 300) });
    expect((await api.request({ method: 'POST', url: '/api/v1/validate-key', key: expired.key })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 400));
    expect((await api.request({ method: 'POST', url: '/api/v1/validate-key', key: expired.key })).status).toBe(401);
  });

  it('names the missing scope in a 403', async () => {
    const narrow = await api.keys.create({ organizationId: org.id, scopes: ['read:usage'] });
    const r = await api.request({ url: '/api/v1/brands', key: narrow.key });
    expect(r.status).toBe(403);
    expect(r.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required: 'read:brands' } });
  });

  it('answers 400 with the offending fields for bad ids and query values, never a 500', async () => {
    for (const url of ['/api/v1/brands/abc', '/api/v1/brands/0', '/api/v1/brands/1.5', '/api/v1/brands/99999999999999999999', '/api/v1/brands/-1/competitors']) {
      const r = await api.request({ url, key: org.key });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [expect.objectContaining({ field: 'id' })] } });
    }
    for (const url of ['/api/v1/brands?clientId=abc', '/api/v1/brands?clientId=-3', '/api/v1/brands?unknown=1']) {
      const r = await api.request({ url, key: org.key });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('answers 413 for an oversized body, 415 for a wrong content type and 400 for malformed JSON', async () => {
    const big = await api.request({ method: 'POST', url: '/api/v1/validate-key', key: org.key, body: JSON.stringify({ x: 'a'.repeat(1_100_000) }), headers: { 'content-type': 'application/json' } });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    const xml = await api.request({ method: 'POST', url: '/api/v1/validate-key', key: org.key, body: '<x/>', headers: { 'content-type': 'application/xml' } });
    expect(xml.status).toBe(415);
    expect(xml.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const broken = await api.request({ method: 'POST', url: '/api/v1/validate-key', key: org.key, body: '{"a":', headers: { 'content-type': 'application/json' } });
    expect(broken.status).toBe(400);
    expect(broken.body.error.code).toBe('VALIDATION_ERROR');
  });
});
