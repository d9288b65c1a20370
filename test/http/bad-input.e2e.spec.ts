import { connect } from 'node:net';
import { OAuthClientsRepository } from '@libs/auth';
import { startTestApi, type TestApi } from '../support/test-api';

/**
 * Client input that once reached PostgreSQL or `new URL` and came back as 500: text PostgreSQL
 * cannot store (NUL, unpaired surrogates), URLs the validator accepts but WHATWG does not, and
 * nulls in a PATCH. Each is a 400 with the error object (an OAuth code on /api/oauth/).
 */
let api: TestApi;
let org: { id: number; key: string; keyId: number };
let brand: number;
let webhookId: number;

beforeAll(async () => {
  api = await startTestApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  org = await api.organization();
  brand = (await api.tenancy.createBrand({ organizationId: org.id, name: 'Acme', domain: 'acme.com' })).id;
  const w = await api.request({ method: 'POST', url: '/api/v1/webhooks', key: org.key, body: { url: 'http://127.0.0.1:9/hook', events: ['opportunity.opened'], isActive: false } });
  expect(w.status).toBe(201);
  webhookId = w.body.data.id;
});
afterAll(async () => {
  await api?.close();
});

/** A JSON text with `text` in it, escaped as JSON (so a lone surrogate survives as \\udXXX). */
const jsonWith = (build: (text: string) => unknown, text: string) => JSON.stringify(build(text));

describe('bad input', () => {
  const NUL = 'a\u0000b';
  const LONE_SURROGATE = 'a\ud800b';

  it.each([
    ['NUL', NUL],
    ['an unpaired surrogate', LONE_SURROGATE],
  ])('refuses %s in any body or query field with 400 naming it', async (_label, text) => {
    const cases: { method: string; url: string; body?: string; field: string }[] = [
      { method: 'POST', url: '/api/v1/opportunities', body: jsonWith((t) => ({ brandId: brand, type: 'sov_drop', severity: 'low', title: t }), text), field: 'title' },
      { method: 'POST', url: '/api/v1/opportunities', body: jsonWith((t) => ({ brandId: brand, type: 'sov_drop', severity: 'low', title: 'ok', evidence: { deep: [{ note: t }] } }), text), field: 'evidence.deep[0].note' },
      { method: 'POST', url: '/api/v1/opportunities', body: jsonWith((t) => ({ brandId: brand, type: 'sov_drop', severity: 'low', title: 'ok', evidence: { [t]: 1 } }), text), field: `evidence.${text}` },
      { method: 'POST', url: '/api/v1/webhooks', body: jsonWith((t) => ({ url: 'http://127.0.0.1:9/h', events: ['opportunity.opened'], description: t }), text), field: 'description' },
      { method: 'PATCH', url: `/api/v1/webhooks/${webhookId}`, body: jsonWith((t) => ({ description: t }), text), field: 'description' },
    ];
    // A URL carries UTF-8, where a lone surrogate cannot be written: only NUL reaches a query.
    if (text === NUL) cases.push({ method: 'GET', url: `/api/v1/opportunities?status=${encodeURIComponent(text)}`, field: 'status' });
    for (const c of cases) {
      const r = await api.request({ method: c.method, url: c.url, key: org.key, ...(c.body ? { body: c.body, headers: { 'content-type': 'application/json' } } : {}) });
      expect({ url: c.url, status: r.status, code: r.body.error.code }).toEqual({ url: c.url, status: 400, code: 'VALIDATION_ERROR' });
      expect(r.body.error.details.fields[0].field).toBe(c.field);
    }
  });

  it('answers OAuth requests holding NUL with invalid_request (JSON and form), never 500', async () => {
    const client = await new OAuthClientsRepository(api.dataSource).create({ organizationId: org.id, scopes: ['read:brands'], redirectUris: ['https://app.example.com/cb'], name: 'App' });
    const json = await api.request({ method: 'POST', url: '/api/oauth/token', body: jsonWith((t) => ({ grant_type: 'client_credentials', client_id: t, client_secret: 'x' }), NUL), headers: { 'content-type': 'application/json' } });
    expect([json.status, json.body.error.code]).toEqual([400, 'invalid_request']);
    const form = await api.request({ method: 'POST', url: '/api/oauth/token', body: `grant_type=client_credentials&client_id=${client.clientId}%00&client_secret=x`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect([form.status, form.body.error]).toEqual([400, 'invalid_request']);
    const authorize = await api.request({ url: `/api/oauth/authorize?response_type=code&client_id=${client.clientId}%00&redirect_uri=x` });
    expect(authorize.status).toBe(400);
  });

  it('refuses a webhook URL the validator accepts but WHATWG URL does not (400 on url)', async () => {
    for (const url of ['http://xn--a.com/', 'http://[fe80::1%25eth0]/x']) {
      for (const [method, path] of [['POST', '/api/v1/webhooks'], ['PATCH', `/api/v1/webhooks/${webhookId}`]]) {
        const r = await api.request({ method, url: path, key: org.key, body: { url, events: ['opportunity.opened'] } });
        expect({ url, method, status: r.status, field: r.body.error.details?.fields?.[0]?.field }).toEqual({ url, method, status: 400, field: 'url' });
      }
    }
  });

  it('refuses null for a PATCH field that cannot be empty (url, events, isActive); description may be null', async () => {
    for (const field of ['url', 'events', 'isActive']) {
      const r = await api.request({ method: 'PATCH', url: `/api/v1/webhooks/${webhookId}`, key: org.key, body: { [field]: null } });
      expect({ field, status: r.status, named: r.body.error.details?.fields?.[0]?.field }).toEqual({ field, status: 400, named: field });
    }
    const cleared = await api.request({ method: 'PATCH', url: `/api/v1/webhooks/${webhookId}`, key: org.key, body: { description: null } });
    expect([cleared.status, cleared.body.data.description]).toEqual([200, null]);
  });

  it('refuses a body nested deeper than 64 levels (100,000 here) with 400, and takes 63', async () => {
    const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);
    const post = (n: number, title: string) =>
      api.request({ method: 'POST', url: '/api/v1/opportunities', key: org.key, body: `{"brandId":${brand},"type":"sov_drop","severity":"low","title":"${title}","evidence":{"x":${nested(n)}}}`, headers: { 'content-type': 'application/json' } });
    const deep = await post(100_000, 'deep');
    expect([deep.status, deep.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(deep.body.error.details.fields[0].message).toMatch(/nested more than 64 levels/);
    expect((await post(62, 'just deep enough')).status).toBe(201);
  });
  it('answers a path parameter over 100 characters and a malformed percent-encoding with the error object (400)', async () => {
    for (const url of [`/api/v1/opportunities/${'1'.repeat(101)}`, '/api/v1/opportunities/%E0%A4%A']) {
      const r = await api.request({ url, key: org.key });
      expect({ url, status: r.status, code: r.body.error?.code }).toEqual({ url, status: 400, code: 'VALIDATION_ERROR' });
      expect(r.headers['x-request-id']).toBeDefined();
    }
  });

  it('answers headers larger than the server accepts with 431 and the error object', async () => {
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = api.app.getHttpServer().address() as { port: number };
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(`GET /api/v1/brands HTTP/1.1\r\nHost: x\r\nX-API-Key: ${'k'.repeat(100_000)}\r\n\r\n`));
      let got = '';
      socket.on('data', (d) => (got += d.toString()));
      socket.on('close', () => resolve(got));
      socket.on('error', (e) => (got ? resolve(got) : reject(e)));
    });
    expect(raw).toMatch(/^HTTP\/1.1 431 /);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({ error: { code: 'VALIDATION_ERROR', message: expect.any(String) } });
  });
  it('reads query integers as decimal only: 0x10, 1e2, +5 and a repeated parameter are 400', async () => {
    for (const q of ['/api/v1/opportunities?limit=0x10', '/api/v1/opportunities?limit=1e2', '/api/v1/opportunities?brandId=0x1', '/api/v1/opportunities?offset=%2B5', '/api/v1/opportunities?limit=5&limit=6', '/api/v1/outcomes/_summary?sinceDays=0x10', '/api/v1/usage?days=1e1']) {
      const r = await api.request({ url: q, key: org.key });
      expect({ q, status: r.status, code: r.body.error?.code }).toEqual({ q, status: 400, code: 'VALIDATION_ERROR' });
    }
    const ok = await api.request({ url: '/api/v1/opportunities?limit=16&offset=0', key: org.key });
    expect([ok.status, ok.body.meta.limit]).toEqual([200, 16]);
  });
});
