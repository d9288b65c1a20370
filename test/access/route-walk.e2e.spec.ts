import { ALL_SCOPES, type Scope } from '@libs/auth';
import { registeredRoutes, scanOperations, toOpenApiPath, type OperationAccess, type RegisteredRoute } from '@libs/http';
import { API_ACCESS } from '../../apps/api/src/create-api-app';
import { startTestApi, type TestApi } from '../support/test-api';

/**
 * Walks every route the server registers (recorded by Fastify's onRoute hook, so routes other
 * modules add later are walked too) and proves each one is closed: 401 without credentials, 403
 * INSUFFICIENT_SCOPE naming its scope with a key holding every other scope.
 */

/** The only routes open without credentials: OAuth token, revocation and authorization, and the OAuth metadata documents (RFC 8414, RFC 9728: what an MCP client reads before it has a token); operations; documentation; the dashboard's files (its data comes from the API with the user's key). */
const PUBLIC_PATHS = new Set(['/api/oauth/token', '/api/oauth/revoke', '/api/oauth/authorize', '/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource/mcp', '/health', '/ready', '/metrics', '/api/v1/openapi.json']);
const isPublicPath = (url: string) => PUBLIC_PATHS.has(url) || url === '/docs' || url.startsWith('/docs/') || url === '/app' || url.startsWith('/app/');

/** A concrete URL for a route: every path parameter (and wildcard) is `1`. */
const concrete = (url: string) => url.replace(/:[A-Za-z0-9_]+/g, '1').replace(/\*/g, '1');
const bodyFor = (method: string) => (['POST', 'PATCH', 'PUT'].includes(method) ? {} : undefined);
const label = (r: RegisteredRoute) => `${r.method} ${r.url}`;

let api: TestApi;
let routes: RegisteredRoute[];
let accessOf: (route: RegisteredRoute) => OperationAccess | undefined;
let address = 0;
/** A fresh client address per request (the API trusts X-Forwarded-For), so the per-address failed-authentication limit never answers instead. */
const fromNewAddress = () => ({ 'x-forwarded-for': `10.77.${Math.floor(++address / 250) % 250}.${(address % 250) + 1}` });

beforeAll(async () => {
  api = await startTestApi();
  routes = registeredRoutes(api.app.getHttpAdapter().getInstance());
  const declared = new Map(scanOperations(api.app, API_ACCESS).operations.map((o) => [`${o.method} ${o.path}`, o.access]));
  accessOf = (route) => declared.get(`${route.method} ${toOpenApiPath(route.url)}`);
});
afterAll(async () => {
  await api?.close();
});

const protectedRoutes = () => routes.filter((r) => !isPublicPath(r.url));

describe('every registered route', () => {
  it('is collected from the server, including the documentation and operational routes', () => {
    const labels = routes.map(label);
    expect(labels).toEqual(expect.arrayContaining(['GET /api/v1/brands/:id', 'POST /api/v1/validate-key', 'GET /health', 'GET /api/v1/openapi.json', 'GET /docs']));
    expect(protectedRoutes().length).toBeGreaterThanOrEqual(4);
  });

  it('declares a scope (@RequireScope) unless it is one of the public routes', () => {
    const undeclared = protectedRoutes()
      .filter((r) => accessOf(r)?.kind !== 'scope')
      .map((r) => `${label(r)}: ${accessOf(r)?.kind ?? 'no Nest handler metadata found'}`);
    expect(undeclared).toEqual([]);
  });

  it('is public (@Public) only if it is on the list of public routes', () => {
    const unexpected = routes.filter((r) => accessOf(r)?.kind === 'public' && !isPublicPath(r.url)).map(label);
    expect(unexpected).toEqual([]);
  });

  it('answers 401 with the error object without credentials', async () => {
    const failures: string[] = [];
    for (const route of protectedRoutes()) {
      const res = await api.request({ method: route.method, url: concrete(route.url), body: bodyFor(route.method), headers: fromNewAddress() });
      // /mcp speaks JSON-RPC (MCP's Streamable HTTP): its refusal is a JSON-RPC error whose data is the error object.
      const error = route.url === '/mcp' ? res.body?.error?.data?.error : res.body?.error;
      if (res.status !== 401 || error?.code !== 'UNAUTHORIZED' || typeof error?.message !== 'string') {
        failures.push(`${label(route)} → ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers 403 INSUFFICIENT_SCOPE naming its scope to a key holding every other scope', async () => {
    const keys = new Map<Scope, string>();
    const keyWithout = async (scope: Scope) => {
      if (!keys.has(scope)) keys.set(scope, (await api.organization({ scopes: ALL_SCOPES.filter((s) => s !== scope) })).key);
      return keys.get(scope) as string;
    };
    const failures: string[] = [];
    let checked = 0;
    for (const route of protectedRoutes()) {
      const access = accessOf(route);
      if (access?.kind !== 'scope' || access.scope === null) continue; // @RequireScope(null): any valid credential (validate-key)
      const scope = access.scope as Scope;
      const res = await api.request({ method: route.method, url: concrete(route.url), body: bodyFor(route.method), key: await keyWithout(scope), headers: fromNewAddress() });
      checked++;
      const error = res.body?.error;
      if (res.status !== 403 || error?.code !== 'INSUFFICIENT_SCOPE' || error?.details?.required !== scope || typeof error?.message !== 'string') {
        failures.push(`${label(route)} (needs ${scope}) → ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(0);
  });
});
