import { registeredRoutes, scanOperations, toOpenApiPath, type OperationAccess, type RegisteredRoute } from '@libs/http';
import { ALL_SCOPES } from '@libs/auth';
import { API_ACCESS } from '../../apps/api/src/create-api-app';
import { WEBHOOK_EVENT_TYPES } from '@libs/webhooks';
import { openApiValidator } from '../support/openapi-schemas';
import { startTestApi, type TestApi } from '../support/test-api';
import { servesFilesNotApi } from '../support/routes';

/**
 * The served OpenAPI document covers every route the server registers, with the security its
 * scope declaration implies and the standard error answers; the reference page is served.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ERROR_REF = '#/components/schemas/Error';
/** The document and its reference page, and the dashboard's files (a client of the API, not part of it). */

let api: TestApi;
let doc: Json;
let routes: RegisteredRoute[];
let accessOf: (method: string, path: string) => OperationAccess | undefined;

beforeAll(async () => {
  api = await startTestApi();
  routes = registeredRoutes(api.app.getHttpAdapter().getInstance()).filter((r) => !servesFilesNotApi(r.url));
  const declared = new Map(scanOperations(api.app, API_ACCESS).operations.map((o) => [`${o.method} ${o.path}`, o.access]));
  accessOf = (method, path) => declared.get(`${method} ${path}`);
  const res = await api.request({ url: '/api/v1/openapi.json' });
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(async () => {
  await api?.close();
});

/** Every operation of the document as [METHOD, path, operation]. */
function operations(): [string, string, Json][] {
  return Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([method]) => ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'].includes(method))
      .map(([method, op]) => [method.toUpperCase(), path, op as Json] as [string, string, Json]),
  );
}

/** A response object with a `$ref` to components.responses resolved. */
function resolve(response: Json): Json {
  if (typeof response.$ref !== 'string') return response;
  const name = response.$ref.replace('#/components/responses/', '');
  return doc.components.responses[name];
}

function references(schema: unknown, ref: string): boolean {
  if (!schema || typeof schema !== 'object') return false;
  if ((schema as Json).$ref === ref) return true;
  return Object.values(schema as Json).some((v) => references(v, ref));
}

describe('the OpenAPI document', () => {
  it('is served without credentials at /api/v1/openapi.json with version 1.0.0', async () => {
    const res = await api.request({ url: '/api/v1/openapi.json' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(doc.openapi).toBe('3.1.0'); // 3.1 for its webhooks section
    expect(doc.info).toEqual(expect.objectContaining({ version: '1.0.0', title: expect.any(String), description: expect.any(String) }));
  });

  it('describes the security schemes: API key, OAuth 2.0 with every scope, bearer', () => {
    const schemes = doc.components.securitySchemes;
    expect(schemes.ApiKey).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }));
    expect(schemes.bearer).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    const { clientCredentials, authorizationCode } = schemes.OAuth2.flows;
    expect(clientCredentials.tokenUrl).toBe('/api/oauth/token');
    expect(authorizationCode).toEqual(expect.objectContaining({ authorizationUrl: '/api/oauth/authorize', tokenUrl: '/api/oauth/token', refreshUrl: '/api/oauth/token' }));
    for (const flow of [clientCredentials, authorizationCode]) {
      expect(Object.keys(flow.scopes).sort()).toEqual([...ALL_SCOPES].sort());
      for (const description of Object.values(flow.scopes)) expect(description).toEqual(expect.stringMatching(/\w+/));
    }
  });

  it('contains every route the server registers, with its method', () => {
    expect(routes.length).toBeGreaterThan(5);
    const missing = routes.filter((r) => !doc.paths[toOpenApiPath(r.url)]?.[r.method.toLowerCase()]).map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
  });

  it('gives every non-public operation a security requirement naming its scope', () => {
    const problems: string[] = [];
    let scoped = 0;
    for (const [method, path, op] of operations()) {
      const access = accessOf(method, path);
      if (!access) problems.push(`${method} ${path}: no handler metadata`);
      else if (access.kind === 'public') {
        if ((op.security ?? []).length > 0 && !op.security.some((r: Json) => Object.keys(r).length === 0)) problems.push(`${method} ${path}: public but requires credentials`);
      } else if (access.kind === 'undeclared') problems.push(`${method} ${path}: declares no scope`);
      else {
        const security: Json[] = op.security ?? [];
        const oauth = security.find((r) => r.OAuth2)?.OAuth2;
        const wanted = access.scope === null ? [] : [access.scope];
        if (!security.some((r) => r.ApiKey) || JSON.stringify(oauth) !== JSON.stringify(wanted)) {
          problems.push(`${method} ${path}: security ${JSON.stringify(security)}, wanted ApiKey and OAuth2 ${JSON.stringify(wanted)}`);
        }
        if (access.scope !== null) {
          scoped++;
          if (op['x-required-scope'] !== access.scope || !String(op.description).includes(access.scope)) problems.push(`${method} ${path}: description does not name ${access.scope}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(scoped).toBeGreaterThan(0);
  });

  it('lists the standard error answers of every non-public operation, each referencing the Error schema', () => {
    expect(doc.components.schemas.Error.properties.error.required).toEqual(['code', 'message']);
    const problems: string[] = [];
    for (const [method, path, op] of operations()) {
      const access = accessOf(method, path);
      if (!access || access.kind === 'public') continue;
      const expected = ['400', '401', '429', '500'];
      if (access.kind === 'scope' && access.scope !== null) expected.push('403');
      if (/\{[^}]+\}/.test(path)) expected.push('404');
      for (const status of expected) if (!op.responses[status]) problems.push(`${method} ${path}: no ${status}`);
      for (const [status, raw] of Object.entries(op.responses as Json)) {
        if (!/^[45]/.test(status)) continue;
        const response = resolve(raw as Json);
        if (!references(response?.content?.['application/json']?.schema, ERROR_REF)) problems.push(`${method} ${path}: ${status} does not reference the Error schema`);
      }
      const forbidden = op.responses['403'] && resolve(op.responses['403']);
      if (forbidden && access.kind === 'scope' && access.scope) {
        const example = forbidden.content['application/json'].example;
        if (example?.error?.code !== 'INSUFFICIENT_SCOPE' || example.error.details?.required !== access.scope) problems.push(`${method} ${path}: 403 example does not name ${access.scope}`);
      }
      const tooMany = resolve(op.responses['429'] ?? {});
      for (const header of ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) {
        if (!tooMany?.headers?.[header]) problems.push(`${method} ${path}: 429 without ${header}`);
      }
    }
    expect(problems).toEqual([]);
    const badRequest = doc.components.responses.BadRequest.content['application/json'].example;
    expect(badRequest.error.code).toBe('VALIDATION_ERROR');
    expect(badRequest.error.details.fields).toEqual([expect.objectContaining({ field: expect.any(String), message: expect.any(String) })]);
  });

  it('has unique operationIds, and every operation a description and a tag', () => {
    const ids = operations().map(([, , op]) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = new Set((doc.tags as Json[]).map((t) => t.name));
    const problems = operations()
      .filter(([, , op]) => !op.description || !op.tags?.length || !op.tags.every((t: string) => tags.has(t)))
      .map(([method, path]) => `${method} ${path}`);
    expect(problems).toEqual([]);
  });
});

/** The analytics operations (DESIGN §13): each documents its success answer with an example. */
const ANALYTICS_PATHS = /^\/api\/v1\/(visibility|aeo|geo|brand-index|sentiment|analysis-runs|analysis-results|audit-requests|brands\/\{id\}\/(prompts|facts|page-audits)|citation-sources|citations|prompts|changes|agent-analytics|channels|metrics|campaigns|content|audiences)(\/|$)/;

describe('examples', () => {
  it('every analytics operation has an example of its success answer, and every example conforms to its schema', () => {
    const validate = openApiValidator(doc);
    const missing: string[] = [];
    const problems: string[] = [];
    for (const [method, path, op] of operations()) {
      const [status, response] = Object.entries(op.responses as Json).find(([code]) => code.startsWith('2')) ?? [];
      const content = response && resolve(response as Json).content?.['application/json'];
      if (!content) continue;
      if (content.example === undefined) {
        if (ANALYTICS_PATHS.test(path)) missing.push(`${method} ${path} ${status}`);
        continue;
      }
      problems.push(...validate(content.schema, content.example).map((p) => `${method} ${path}: ${p}`));
    }
    expect(missing).toEqual([]);
    expect(problems).toEqual([]);
  });
});

describe('the reference page', () => {
  it('has a webhooks section: one signed POST per event type, each with its own payload schema, and its example conforms', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    const validate = openApiValidator(doc);
    const schemas = new Set<string>();
    for (const [event, item] of Object.entries(doc.webhooks as Json)) {
      const op = item.post;
      expect(op.parameters.map((p: Json) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
      const content = op.requestBody.content['application/json'];
      schemas.add(content.schema.$ref);
      expect(doc.components.schemas[content.schema.$ref.split('/').pop()].properties.type.enum).toEqual([event]);
      expect({ event, problems: validate(content.schema, content.example) }).toEqual({ event, problems: [] });
    }
    expect(schemas.size).toBe(WEBHOOK_EVENT_TYPES.length);
  });

  it('answers 200 HTML at /docs, loading Swagger UI from this server and the document from /api/v1/openapi.json', async () => {
    const page = await api.request({ url: '/docs' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<div id="swagger-ui">');
    expect(page.body).not.toMatch(/https?:\/\//);
    const initializer = await api.request({ url: '/docs/swagger-initializer.js' });
    expect(initializer.status).toBe(200);
    expect(initializer.body).toContain('"/api/v1/openapi.json"');
    for (const asset of ['/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css', '/docs/swagger-ui-standalone-preset.js']) {
      const res = await api.request({ url: asset });
      expect([asset, res.status]).toEqual([asset, 200]);
    }
    expect((await api.request({ url: '/docs/../package.json' })).status).toBe(404);
  });
});
