import { ALL_SCOPES } from '@libs/auth';
import { registeredRoutes, type RegisteredRoute } from '@libs/http';
import { startTestApi, type TestApi } from '../support/test-api';
import { servesFilesNotApi } from '../support/routes';

/**
 * Walks every route the server registers (Fastify's onRoute record, as the route walk does, so a
 * route added later is walked too), every method, with query parameters it does not declare, from
 * a key holding every scope: each is 400 naming them, whether the route has a query DTO or none.
 * The documentation routes are static files served by Fastify, outside the API's rules; so are the
 * dashboard's (/app), whose page keeps its own state in the query string. The OAuth
 * endpoints ignore unrecognised parameters, as RFC 6749 §3.1 and §3.2 require (names of
 * Object.prototype members excepted: those are refused everywhere).
 */

const IGNORING_QUERY = new Set(['POST /api/oauth/token', 'POST /api/oauth/revoke', 'GET /api/oauth/authorize', 'POST /api/oauth/authorize']);
const PROTOTYPE_NAMES = new Set(['__proto__', 'constructor']);

const concrete = (url: string) => url.replace(/:[A-Za-z0-9_]+/g, '999999999').replace(/\*/g, '1');
const bodyFor = (method: string) => (['POST', 'PATCH', 'PUT'].includes(method) ? {} : undefined);
const label = (r: RegisteredRoute) => `${r.method} ${r.url}`;

let api: TestApi;
let key: string;
let routes: RegisteredRoute[];

beforeAll(async () => {
  api = await startTestApi();
  key = (await api.organization()).key;
  routes = registeredRoutes(api.app.getHttpAdapter().getInstance()).filter((r) => !servesFilesNotApi(r.url));
});
afterAll(async () => {
  await api?.close();
});

describe('every route', () => {
  it('is walked, those with a query DTO and those without', () => {
    expect(routes.map(label)).toEqual(expect.arrayContaining(['GET /api/v1/brands/:id', 'GET /api/v1/webhooks/events', 'GET /api/v1/opportunities', 'GET /health', 'POST /api/v1/validate-key']));
  });

  it.each([['__proto__'], ['constructor'], ['unknownParam'], ['api_key']])('refuses an undeclared query parameter %s (400 naming it)', async (name) => {
    const failures: string[] = [];
    for (const route of routes) {
      const send = (query: string) => api.request({ method: route.method, url: `${concrete(route.url)}${query}`, key, body: bodyFor(route.method) });
      const res = await send(`?${encodeURIComponent(name)}=1`);
      const error = res.body?.error;
      const ok = IGNORING_QUERY.has(label(route))
        ? JSON.stringify([res.status, res.body]) === JSON.stringify(await send('').then((r) => [r.status, r.body])) || (PROTOTYPE_NAMES.has(name) && res.status === 400)
        : res.status === 400 && error?.code === 'VALIDATION_ERROR' && (error.details?.fields ?? []).some((f: { field: string; message: string }) => f.field === name && f.message === `property ${name} should not exist`);
      if (!ok) failures.push(`${label(route)} ?${name}=1 → ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(failures).toEqual([]);
  });

  it('checks access first: an undeclared parameter from a key without the route\'s scope is 403, without credentials 401', async () => {
    const without = (await api.organization({ scopes: ALL_SCOPES.filter((s) => s !== 'read:webhooks') })).key;
    for (const url of ['/api/v1/webhooks/events?unknownParam=1', '/api/v1/webhooks?unknownParam=1']) {
      const refused = await api.request({ url, key: without });
      expect([refused.status, refused.body.error.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
      expect((await api.request({ url })).status).toBe(401);
    }
  });

  it('still serves a route without a query DTO when no query string, or an empty one, is sent', async () => {
    for (const url of ['/api/v1/webhooks/events', '/api/v1/webhooks/events?']) expect((await api.request({ url, key })).status).toBe(200);
  });
});
