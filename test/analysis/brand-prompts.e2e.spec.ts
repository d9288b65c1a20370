import { startTestApi, type TestApi } from '../support/test-api';

/** Tracked prompts over HTTP: validation, limits, conflicts, tenancy and client-bound keys (DESIGN §13.1). */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ LOG_LEVEL: 'error' });
});
afterAll(async () => {
  await api?.close();
});

describe('brand prompts', () => {
  let org: { id: number; key: string };
  let other: { id: number; key: string };
  let brand: number;
  let clientBrand: number;
  let clientA: number;
  const url = (b: number, rest = '') => `/api/v1/brands/${b}/prompts${rest}`;

  beforeAll(async () => {
    org = await api.organization();
    other = await api.organization();
    clientA = (await api.tenancy.createClient(org.id, 'Client A')).id;
    brand = (await api.tenancy.createBrand({ organizationId: org.id, name: 'Acme', domain: 'acme.com' })).id;
    clientBrand = (await api.tenancy.createBrand({ organizationId: org.id, clientId: clientA, name: 'Initech', domain: 'initech.com' })).id;
  });

  it('adds, lists, changes and removes a prompt', async () => {
    const created = await api.request({ method: 'POST', url: url(brand), key: org.key, body: { query: '  best   CRM\nfor agencies ', topic: 'crm', tags: ['comparison', ' comparison '] } });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.any(Number),
      brandId: brand,
      query: 'best CRM for agencies',
      topic: 'crm',
      tags: ['comparison'],
      providers: ['chatgpt', 'claude', 'gemini', 'perplexity'],
      country: null,
      language: null,
      isActive: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const id = created.body.data.id as number;
    const second = await api.request({ method: 'POST', url: url(brand), key: org.key, body: { query: 'Acme vs Globex', providers: ['claude'], isActive: false } });
    expect(second.status).toBe(201);

    const list = await api.request({ url: url(brand, '?sort=query&order=asc'), key: org.key });
    expect(list.status).toBe(200);
    expect(list.body.data.map((p: { query: string }) => p.query)).toEqual(['Acme vs Globex', 'best CRM for agencies']);
    expect(list.body.meta).toEqual({ total: 2, limit: 50, offset: 0, hasMore: false });
    const active = await api.request({ url: url(brand, '?active=true'), key: org.key });
    expect(active.body.data.map((p: { id: number }) => p.id)).toEqual([id]);

    const patched = await api.request({ method: 'PATCH', url: url(brand, `/${id}`), key: org.key, body: { topic: null, providers: ['gemini', 'chatgpt'], isActive: false } });
    expect([patched.status, patched.body]).toEqual([200, expect.anything()]);
    expect(patched.body.data).toMatchObject({ id, topic: null, providers: ['gemini', 'chatgpt'], isActive: false, query: 'best CRM for agencies' });

    const removed = await api.request({ method: 'DELETE', url: url(brand, `/${id}`), key: org.key });
    expect(removed.body).toEqual({ data: { id, deleted: true } });
    expect((await api.request({ method: 'DELETE', url: url(brand, `/${id}`), key: org.key })).status).toBe(404);
    expect((await api.request({ method: 'PATCH', url: url(brand, `/${id}`), key: org.key, body: { isActive: true } })).status).toBe(404);
  });

  it('refuses bad input with 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{}, 'query'],
      [{ query: '' }, 'query'],
      [{ query: '   ' }, 'query'],
      [{ query: 'x'.repeat(1001) }, 'query'],
      [{ query: 42 }, 'query'],
      [{ query: 'ok', providers: ['bing'] }, 'providers'],
      [{ query: 'ok', providers: [] }, 'providers'],
      [{ query: 'ok', providers: ['claude', 'claude'] }, 'providers'],
      [{ query: 'ok', tags: Array.from({ length: 21 }, (_, k) => `t${k}`) }, 'tags'],
      [{ query: 'ok', tags: [''] }, 'tags'],
      [{ query: 'ok', topic: '' }, 'topic'],
      [{ query: 'ok', isActive: null }, 'isActive'],
      [{ query: 'ok', isActive: 'yes' }, 'isActive'],
      [{ query: 'ok', extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const r = await api.request({ method: 'POST', url: url(brand), key: org.key, body });
      expect([JSON.stringify(body).slice(0, 60), r.status]).toEqual([JSON.stringify(body).slice(0, 60), 400]);
      expect(r.body.error.code).toBe('VALIDATION_ERROR');
      expect(r.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    expect((await api.request({ method: 'POST', url: url(brand), key: org.key, body: { query: 'x'.repeat(1000) } })).status).toBe(201);
    expect((await api.request({ url: url(brand, '?active=maybe'), key: org.key })).status).toBe(400);
    expect((await api.request({ url: url(brand, '?sort=constructor'), key: org.key })).status).toBe(400);
    expect((await api.request({ url: '/api/v1/brands/abc/prompts', key: org.key })).status).toBe(400);
    expect((await api.request({ method: 'PATCH', url: url(brand, '/0'), key: org.key, body: {} })).status).toBe(400);
  });

  it('answers 409 for the same query twice (case and white space aside)', async () => {
    const first = await api.request({ method: 'POST', url: url(brand), key: org.key, body: { query: 'Is Acme worth it?' } });
    const again = await api.request({ method: 'POST', url: url(brand), key: org.key, body: { query: 'is  acme WORTH it?' } });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'CONFLICT', details: { promptId: first.body.data.id } });
    const otherPrompt = await api.request({ method: 'POST', url: url(brand), key: org.key, body: { query: 'Acme pricing' } });
    const rename = await api.request({ method: 'PATCH', url: url(brand, `/${otherPrompt.body.data.id}`), key: org.key, body: { query: 'IS ACME WORTH IT?' } });
    expect(rename.status).toBe(409);
    // The same query for another brand is fine.
    expect((await api.request({ method: 'POST', url: url(clientBrand), key: org.key, body: { query: 'Is Acme worth it?' } })).status).toBe(201);
  });

  it('keeps at most 500 active prompts a brand, also under concurrent adds', async () => {
    const b = (await api.tenancy.createBrand({ organizationId: org.id, name: 'Busy', domain: 'busy.com' })).id;
    await api.dataSource.query(
      `INSERT INTO tracked_prompts (organization_id, brand_id, query, providers) SELECT $1, $2, 'q' || g, ARRAY['chatgpt'] FROM generate_series(1, 498) g`,
      [org.id, b],
    );
    const racing = await Promise.all([0, 1, 2, 3].map((k) => api.request({ method: 'POST', url: url(b), key: org.key, body: { query: `race ${k}` } })));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 201, 409, 409]);
    const full = racing.find((r) => r.status === 409)!;
    expect(full.body.error).toMatchObject({ code: 'CONFLICT', details: { limit: 500 } });
    // Inactive prompts do not count; activating one past the limit does.
    const parked = await api.request({ method: 'POST', url: url(b), key: org.key, body: { query: 'parked', isActive: false } });
    expect(parked.status).toBe(201);
    expect((await api.request({ method: 'PATCH', url: url(b, `/${parked.body.data.id}`), key: org.key, body: { isActive: true } })).status).toBe(409);
  });

  it("another organisation's brand is 404, a client-bound key sees its client's brands only, and scopes hold", async () => {
    for (const method of ['GET', 'POST'] as const) {
      const r = await api.request({ method, url: url(brand), key: other.key, body: method === 'POST' ? { query: 'x' } : undefined });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: { code: 'NOT_FOUND', message: `Brand ${brand} not found` } });
    }
    const mine = await api.request({ url: url(brand), key: org.key });
    const somePrompt = mine.body.data[0].id as number;
    expect((await api.request({ method: 'PATCH', url: url(brand, `/${somePrompt}`), key: other.key, body: { isActive: false } })).status).toBe(404);
    expect((await api.request({ method: 'DELETE', url: url(brand, `/${somePrompt}`), key: other.key })).status).toBe(404);
    // A prompt id of another brand is 404 under this one.
    expect((await api.request({ method: 'DELETE', url: url(clientBrand, `/${somePrompt}`), key: org.key })).status).toBe(404);

    const bound = await api.keys.create({ organizationId: org.id, scopes: ['read:brands', 'write:brands'], clientId: clientA });
    expect((await api.request({ url: url(clientBrand), key: bound.key })).status).toBe(200);
    expect((await api.request({ url: url(brand), key: bound.key })).status).toBe(404);
    expect((await api.request({ method: 'POST', url: url(brand), key: bound.key, body: { query: 'x' } })).status).toBe(404);

    const readOnly = await api.keys.create({ organizationId: org.id, scopes: ['read:brands'] });
    const refused = await api.request({ method: 'POST', url: url(brand), key: readOnly.key, body: { query: 'x' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required: 'write:brands' } });
  });

  it('brand facts: GET and PUT with validation, tenancy and scopes', async () => {
    const url = `/api/v1/brands/${brand}/facts`;
    expect((await api.request({ url, key: org.key })).body.data).toEqual({ brandId: brand, facts: { foundedYear: null, startingPrice: null, headquarters: null, productNames: [] }, updatedAt: null });
    const put = await api.request({ method: 'PUT', url, key: org.key, body: { foundedYear: 2012, startingPrice: { amount: 9.5, currency: 'EUR' }, headquarters: ' Berlin ', productNames: ['Acme One', 'Acme One'] } });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ brandId: brand, facts: { foundedYear: 2012, startingPrice: { amount: 9.5, currency: 'EUR' }, headquarters: 'Berlin', productNames: ['Acme One'] }, updatedAt: expect.any(String) });
    expect((await api.request({ url, key: org.key })).body.data.facts.foundedYear).toBe(2012);
    for (const [body, field] of [
      [{ foundedYear: 1700 }, 'foundedYear'],
      [{ foundedYear: 2012.5 }, 'foundedYear'],
      [{ startingPrice: { amount: -1, currency: 'USD' } }, 'startingPrice.amount'],
      [{ startingPrice: { amount: 5, currency: 'JPY' } }, 'startingPrice.currency'],
      [{ headquarters: '' }, 'headquarters'],
      [{ productNames: Array.from({ length: 51 }, (_, k) => `p${k}`) }, 'productNames'],
      [{ slogan: 'x' }, 'slogan'],
    ] as [unknown, string][]) {
      const r = await api.request({ method: 'PUT', url, key: org.key, body });
      expect([field, r.status]).toEqual([field, 400]);
      expect(r.body.error.details.fields.map((f: { field: string }) => f.field).join(' ')).toContain(field.split('.')[0]);
    }
    expect((await api.request({ url, key: other.key })).status).toBe(404);
    expect((await api.request({ method: 'PUT', url, key: other.key, body: {} })).status).toBe(404);
    const readOnly = await api.keys.create({ organizationId: org.id, scopes: ['read:brands'] });
    expect((await api.request({ method: 'PUT', url, key: readOnly.key, body: {} })).status).toBe(403);
    // PUT replaces: what is left out is no longer registered.
    expect((await api.request({ method: 'PUT', url, key: org.key, body: { headquarters: 'Munich' } })).body.data.facts).toEqual({ foundedYear: null, startingPrice: null, headquarters: 'Munich', productNames: [] });
  });
});
