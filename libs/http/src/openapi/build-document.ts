import { Logger, type INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import {
  ERROR_REF,
  ERROR_RESPONSES,
  ERROR_SCHEMA,
  ERROR_SCHEMA_OBJECT,
  RATE_LIMIT_HEADERS,
  RATE_LIMIT_HEADER_REFS,
  forbiddenResponse,
  responseRef,
  securitySchemes,
} from './components';
import { operationAccessTable, operationIdOf, type AccessDeclarations, type OperationAccess } from './operation-access';
import { toOpenApi31 } from './openapi-31';

export const OPENAPI_VERSION = '1.0.0';
export const OPENAPI_JSON_PATH = '/api/v1/openapi.json';
export const DOCS_PATH = '/docs';

type Operation = OpenAPIObject['paths'][string]['get'] & object;
type Responses = Operation['responses'];

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const DESCRIPTION = `Analytics and opportunity tracking for how brands appear in AI answers: share of voice, sentiment,
citations, prompts, detected changes, page-level optimisation, an opportunity queue with a lifecycle and
verified outcomes, AI-bot crawl analytics, channel metrics, webhooks, usage, API keys and OAuth 2.0.

**Authentication.** Every operation except the OAuth endpoints needs an API key in \`X-API-Key\` or an OAuth 2.0
access token in \`Authorization: Bearer <token>\`. Each operation names the scope it needs: a credential without it
is answered 403 \`INSUFFICIENT_SCOPE\` with \`details.required\`.

**Errors.** Every error is \`{"error": {"code", "message", "details"?}}\` (schema \`Error\`).

**Limits.** Rate limits are per key by tier; answers carry \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and
\`X-RateLimit-Reset\`, and a 429 adds \`Retry-After\`. Paginated lists take \`limit\` (1-200, default 50) and
\`offset\` (default 0) and answer \`{data, meta: {total, limit, offset, hasMore}}\`.`;

/** Descriptions of the tags controllers use; a tag missing here is still listed. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Opportunities: 'The opportunity queue and its lifecycle',
  Outcomes: 'Verified business impact of resolved opportunities',
  'Citation sources': 'Domains cited in AI answers',
  'Agent analytics': 'AI-bot crawl activity on the customer site',
  Brands: "The organisation's brands and their competitors",
  Webhooks: 'Webhook subscriptions and deliveries',
  'Usage and key validation': 'API usage and credential checks',
  OAuth: 'OAuth 2.0 token issue and revocation',
  Operations: 'Liveness, readiness and metrics of the service',
};

/**
 * The service's OpenAPI document, built once: Nest's scan of the controllers (paths, parameters and
 * schemas from their DTO decorators), then, centrally for every operation, the security requirement
 * its `@RequireScope`/`@Public` declares, the standard error answers, the rate-limit headers and a
 * description naming the scope, so that a new route cannot forget any of them.
 */
export function buildOpenApiDocument(app: INestApplication, declarations: AccessDeclarations, webhooks: readonly WebhookDocumentation[] = []): OpenAPIObject {
  return buildOpenApi(app, declarations, webhooks).document;
}

/** A webhook event the service sends: the `webhooks` section's entry, with the class of its payload's schema. */
export interface WebhookDocumentation {
  event: string;
  description: string;
  /** A class with @ApiProperty decorators; its name is the schema's. */
  payload: new () => unknown;
  example: unknown;
}

/** The document and the operations it was built from (with the access each declares). */
export function buildOpenApi(
  app: INestApplication,
  declarations: AccessDeclarations,
  webhooks: readonly WebhookDocumentation[] = [],
): { document: OpenAPIObject; operations: ScannedOperation[] } {
  const { document, operations } = scanOperations(app, declarations, webhooks.map((w) => w.payload));
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, [ERROR_SCHEMA]: ERROR_SCHEMA_OBJECT as never },
    responses: { ...document.components?.responses, ...ERROR_RESPONSES },
    headers: { ...document.components?.headers, ...RATE_LIMIT_HEADERS },
    securitySchemes: { ...document.components?.securitySchemes, ...securitySchemes(declarations.scopes) },
  };
  // Request bodies that name a brand or client.
  const tenantBodies = new Set<string>();
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
    if (!('$ref' in schema) && (schema.properties?.brandId || schema.properties?.clientId)) tenantBodies.add(`#/components/schemas/${name}`);
  }
  const tags = new Set<string>();
  for (const { path, operation, access } of operations) {
    describeAccess(operation, path, access, tenantBodies);
    tidy(operation);
    for (const tag of operation.tags ?? []) tags.add(tag);
  }
  const undeclared = operations.filter((o) => o.access.kind === 'undeclared').map((o) => `${o.method} ${o.path}`);
  if (undeclared.length) {
    new Logger('OpenAPI').warn(`routes declaring neither @RequireScope nor @Public (the guard refuses them with 500): ${undeclared.join(', ')}`);
  }
  const listed = new Set((document.tags ?? []).map((t) => t.name));
  document.tags = [
    ...(document.tags ?? []),
    ...[...tags].filter((t) => !listed.has(t)).sort().map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? `${name} operations` })),
  ];
  if (webhooks.length) document.webhooks = Object.fromEntries(webhooks.map((w) => [w.event, { post: webhookOperation(w) }]));
  return { document: toOpenApi31(document), operations };
}

/** One operation of the scanned document with the access its handler declares. */
export interface ScannedOperation {
  /** Upper case: GET, POST, ... */
  method: string;
  /** OpenAPI spelling: `/api/v1/brands/{id}`. */
  path: string;
  operation: Operation;
  access: OperationAccess;
}

/** Nest's scan of the controllers, each operation paired with its handler's access declaration. */
export function scanOperations(
  app: INestApplication,
  declarations: AccessDeclarations,
  extraModels: readonly (new () => unknown)[] = [],
): { document: OpenAPIObject; operations: ScannedOperation[] } {
  const access = operationAccessTable(app, declarations);
  const handlerOf = new Map<string, string>();
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.0.3')
    .setTitle('AI Visibility Analytics API')
    .setDescription(DESCRIPTION)
    .setVersion(OPENAPI_VERSION)
    .setContact('API support', 'https://example.com/support', 'api@example.com')
    .setLicense('Proprietary', 'https://example.com/terms')
    .addServer('/', 'This server')
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    extraModels: [...extraModels],
    operationIdFactory: (controller, method, version) => {
      const id = operationIdOf(controller, method, version);
      handlerOf.set(id, operationIdOf(controller, method));
      return id;
    },
  });
  const operations: ScannedOperation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const id = operation.operationId ?? '';
      operations.push({ method: method.toUpperCase(), path, operation, access: access.get(handlerOf.get(id) ?? id) ?? { kind: 'undeclared' } });
    }
  }
  return { document, operations };
}

const SIGNATURE_HEADERS = [
  { name: 'webhook-id', description: 'The delivery id: the same on every attempt of a delivery; de-duplicate on it', example: '6f1d3c2a-8b4e-4f5a-9c7d-2e1b0a9f8c7d' },
  { name: 'webhook-timestamp', description: 'Seconds since the epoch when this attempt was signed', example: '1763630102' },
  { name: 'webhook-signature', description: '`v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`, keyed with the subscription secret (Standard Webhooks)', example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=' },
];

/** A webhook as an operation the subscriber implements: the signed POST it receives and the answers it may give. */
function webhookOperation(w: WebhookDocumentation): Operation {
  const id = w.event.replace(/[^A-Za-z0-9]+/g, '_');
  return {
    operationId: `webhook_${id}`,
    summary: w.event,
    description: `${w.description} Sent as a signed POST (Standard Webhooks) to every active subscription listing \`${w.event}\`.`,
    tags: ['Webhooks'],
    parameters: SIGNATURE_HEADERS.map((h) => ({ name: h.name, in: 'header' as const, required: true, description: h.description, schema: { type: 'string' }, example: h.example })),
    requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${w.payload.name}` }, example: w.example } } },
    responses: {
      '2XX': { description: 'Received: the delivery succeeded' },
      '410': { description: 'Gone: the subscription is deactivated' },
      default: { description: 'Any other answer (or none within the timeout) is retried on the schedule; `Retry-After` is honoured' },
    },
  };
}

function describeAccess(operation: Operation, path: string, access: OperationAccess, tenantBodies: ReadonlySet<string>): void {
  const responses: Responses = { ...operation.responses };
  const hasInput = Boolean(operation.requestBody) || (operation.parameters?.length ?? 0) > 0;
  const add = (status: string, response: Responses[string]) => {
    if (!responses[status]) responses[status] = response;
  };
  let sentence: string;
  if (access.kind === 'public') {
    // Open to all; client authentication a controller documents (OAuth: HTTP Basic) stays, as optional.
    const declared = (operation.security ?? []).filter((r) => Object.keys(r).length > 0);
    operation.security = declared.length ? [...declared, {}] : [];
    sentence = 'Open: needs no API key or access token.';
    if (hasInput) add('400', responseRef('BadRequest'));
  } else {
    const scopes = access.kind === 'scope' && access.scope ? [access.scope] : [];
    operation.security = [{ ApiKey: [] }, { OAuth2: scopes }, { bearer: [] }];
    if (access.kind === 'scope' && access.scope) {
      sentence = `Requires scope \`${access.scope}\` (API key or OAuth 2.0 token).`;
      (operation as Record<string, unknown>)['x-required-scope'] = access.scope;
    } else if (access.kind === 'scope') {
      sentence = 'Requires an API key or OAuth 2.0 token; no scope needed.';
    } else {
      sentence = 'Declares no scope yet: the server refuses it (500) until it does.';
    }
    for (const [status, response] of Object.entries(responses)) {
      if (/^[23]/.test(status) && response && !('$ref' in response)) response.headers = { ...RATE_LIMIT_HEADER_REFS, ...response.headers };
    }
    add('400', responseRef('BadRequest'));
    add('401', responseRef('Unauthorized'));
    if (access.kind === 'scope' && access.scope) add('403', forbiddenResponse(access.scope));
    if (/\{[^}]+\}/.test(path) || namesTenant(operation, tenantBodies)) add('404', responseRef('NotFound'));
    add('429', responseRef('TooManyRequests'));
  }
  add('408', responseRef('RequestTimeout'));
  add('431', responseRef('HeadersTooLarge'));
  if (operation.requestBody) {
    add('413', responseRef('PayloadTooLarge'));
    add('415', responseRef('UnsupportedMediaType'));
  }
  add('500', responseRef('InternalError'));
  operation.responses = responses;
  const lead = operation.description?.trim() || operation.summary?.trim() || '';
  operation.description = lead ? `${lead}${/[.!?]$/.test(lead) ? '' : '.'}\n\n${sentence}` : sentence;
}

/** Whether the operation takes a brand or client id in its query or body: an id of another organisation, or none, is 404. */
function namesTenant(operation: Operation, tenantBodies: ReadonlySet<string>): boolean {
  const inQuery = (operation.parameters ?? []).some((p) => !('$ref' in p) && p.in === 'query' && (p.name === 'brandId' || p.name === 'clientId'));
  const body = operation.requestBody && !('$ref' in operation.requestBody) ? operation.requestBody.content['application/json']?.schema : undefined;
  return inQuery || (body !== undefined && '$ref' in body && tenantBodies.has(body.$ref));
}

/**
 * Fills what Nest's scan leaves blank: an empty response description, the body of an error answer, and the type of path ids,
 * which the contract defines as integers (`{id}`, `{keyId}`) while a `number` handler argument scans as number.
 */
function tidy(operation: Operation): void {
  for (const [status, response] of Object.entries(operation.responses)) {
    if (!response || '$ref' in response) continue;
    if (!response.description) response.description = /^2/.test(status) ? 'Success' : `HTTP ${status}`;
    // An error answer a controller documents without a body is still the contract's error object.
    if (/^[45]/.test(status) && !response.content) response.content = { 'application/json': { schema: { $ref: ERROR_REF } } };
  }
  for (const parameter of operation.parameters ?? []) {
    if ('$ref' in parameter || parameter.in !== 'path' || !parameter.schema || '$ref' in parameter.schema) continue;
    if (parameter.schema.type === 'number' && !parameter.schema.format) parameter.schema = { type: 'integer', minimum: 1 };
  }
}
