import { registeredRoutes, toOpenApiPath, type RegisteredRoute } from '@libs/http';
import { startTestApi, type TestApi } from '../support/test-api';

/**
 * Walks every PATCH and PUT route the server registers (Fastify's onRoute record, as the route walk
 * does, so a route added later is walked too) with its body schema from the served OpenAPI
 * document, and sends `null` for each field and as the whole body:
 * - a field the document marks nullable takes null (null means "clear"): validation lets it through,
 *   so the request reaches the handler, which answers 404 for the missing resource the walk names
 *   (or, on a route naming no resource, the organisation's own settings as PUT /budgets, 200: the
 *   walk's organisation is its own);
 * - any other field is 400 VALIDATION_ERROR naming it (never a 500, never accepted);
 * - a body that is null, an array or a scalar is 400 naming `body`.
 * The resource ids in the path name nothing, so a request that passes validation changes nothing.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const MISSING_ID = '999999999';
const concrete = (url: string) => url.replace(/:[A-Za-z0-9_]+/g, MISSING_ID);
const label = (r: RegisteredRoute) => `${r.method} ${r.url}`;
const json = { 'content-type': 'application/json' };

let api: TestApi;
let key: string;
let doc: Json;
let routes: RegisteredRoute[];

beforeAll(async () => {
  api = await startTestApi();
  key = (await api.organization()).key;
  routes = registeredRoutes(api.app.getHttpAdapter().getInstance()).filter((r) => r.method === 'PATCH' || r.method === 'PUT');
  doc = (await api.request({ url: '/api/v1/openapi.json' })).body;
});
afterAll(async () => {
  await api?.close();
});

/** A schema with its `$ref` (to components.schemas) resolved. */
function resolve(schema: Json | undefined): Json | undefined {
  if (!schema || typeof schema.$ref !== 'string') return schema;
  return doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')];
}

/** Whether a property schema (OpenAPI 3.1) admits null: `null` among its types, or an `anyOf` branch that is null. */
function nullable(schema: Json): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes('null') || (Array.isArray(schema.anyOf) && schema.anyOf.some((s: Json) => s.type === 'null'));
}

/** The JSON body's properties of a route's operation in the document. */
function bodyProperties(route: RegisteredRoute): Record<string, Json> {
  const operation = doc.paths[toOpenApiPath(route.url)]?.[route.method.toLowerCase()];
  const schema = resolve(operation?.requestBody?.content?.['application/json']?.schema);
  return (schema?.properties ?? {}) as Record<string, Json>;
}

const send = (route: RegisteredRoute, body: string) => api.request({ method: route.method, url: concrete(route.url), key, body, headers: json });

describe('every PATCH and PUT route', () => {
  it('is found with its body schema (the walk sees the routes it should)', () => {
    const labels = routes.map(label);
    expect(labels).toEqual(expect.arrayContaining(['PATCH /api/v1/channels/:id', 'PATCH /api/v1/webhooks/:id', 'PUT /api/v1/brands/:id/facts', 'PATCH /api/v1/brands/:id/prompts/:promptId']));
    for (const route of routes) expect({ route: label(route), fields: Object.keys(bodyProperties(route)).length > 0 }).toEqual({ route: label(route), fields: true });
  });

  it('refuses null for each field the document does not mark nullable (400 naming it), and takes it for those it does', async () => {
    const failures: string[] = [];
    let walked = 0;
    for (const route of routes) {
      for (const [field, schema] of Object.entries(bodyProperties(route))) {
        walked++;
        const res = await send(route, JSON.stringify({ [field]: null }));
        const named = (res.body?.error?.details?.fields ?? []).some((f: { field: string }) => f.field === field || f.field.startsWith(`${field}.`));
        if (nullable(schema)) {
          const reached = /:[A-Za-z0-9_]+/.test(route.url) ? 404 : 200;
          if (res.status !== reached || named) failures.push(`${label(route)} ${field}: null (nullable) → ${res.status} ${JSON.stringify(res.body)}`);
        } else if (res.status !== 400 || res.body?.error?.code !== 'VALIDATION_ERROR' || !named) {
          failures.push(`${label(route)} ${field}: null → ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(walked).toBeGreaterThan(10);
  });

  it.each(['null', '[]', '[{}]', '"text"', '42', 'true'])('refuses %s as the whole body (400 naming body)', async (body) => {
    const failures: string[] = [];
    for (const route of routes) {
      const res = await send(route, body);
      if (res.status !== 400 || res.body?.error?.code !== 'VALIDATION_ERROR' || res.body.error.details?.fields?.[0]?.field !== 'body') {
        failures.push(`${label(route)} ${body} → ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
