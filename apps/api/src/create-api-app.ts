import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ModuleMetadata } from '@nestjs/common';
import type { AppConfig } from '@libs/config';
import { NestLogger, ROOT_LOGGER } from '@libs/observability';
import { ALL_SCOPES, Authenticator, PUBLIC_METADATA, SCOPE_METADATA } from '@libs/auth';
import { RateLimiter } from '@libs/rate-limit';
import { UsageRecorder } from '@libs/usage';
import { UndeclaredQueryGuard, buildOpenApi, clientErrorReply, frameworkErrorReply, installRouteBodyOptions, recordRoutes, serveApiDocumentation, toFastifyPath, type AccessDeclarations, type WebhookDocumentation } from '@libs/http';
import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES, WEBHOOK_EXAMPLES, WEBHOOK_PAYLOAD_SCHEMAS } from '@libs/webhooks';
import { installMcpAnswers } from '@libs/mcp';
import { ApiModule } from './api.module';
import { REQUEST_ID, installRequestPipeline } from './request-pipeline';
import { serveDashboard } from '../../dashboard/server/serve-dashboard';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** How routes declare access (the OpenAPI document derives each operation's security from it). */
export const API_ACCESS: AccessDeclarations = { scopes: ALL_SCOPES, scopeMetadataKey: SCOPE_METADATA, publicMetadataKey: PUBLIC_METADATA };

/** The webhook events the service sends (the document's `webhooks` section): meaning, payload schema, example. */
export const API_WEBHOOKS: WebhookDocumentation[] = WEBHOOK_EVENT_TYPES.map((event) => ({
  event,
  description: WEBHOOK_EVENT_DESCRIPTIONS[event],
  payload: WEBHOOK_PAYLOAD_SCHEMAS[event],
  example: WEBHOOK_EXAMPLES[event],
}));

/** Builds the Fastify-based Nest application (not yet listening). */
export async function createApiApp(config: AppConfig, extraImports: ModuleMetadata['imports'] = []): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    // A number of hops becomes Fastify's function form: trust the nearest `n` proxies.
    trustProxy: typeof config.trustProxy === 'number' ? (_address: string, hop: number) => hop < (config.trustProxy as number) : config.trustProxy,
    return503OnClosing: true,
    ...REQUEST_ID,
    frameworkErrors: frameworkErrorReply,
    clientErrorHandler: clientErrorReply,
  });
  recordRoutes(adapter.getInstance());
  // Bulk routes' own body limits and NDJSON (e.g. POST /agent-analytics/ingest), from their @RouteConfig.
  installRouteBodyOptions(adapter.getInstance());
  const app = await NestFactory.create<NestFastifyApplication>(ApiModule.forRoot(config, extraImports), adapter, {
    bufferLogs: true,
    // The request pipeline installs the JSON body parser (a member budget before parsing).
    bodyParser: false,
  });
  app.useLogger(app.get(NestLogger));
  // After the access guard (AuthModule's APP_GUARD, applied when the application was created): unknown query parameters are 400 once access is checked.
  app.useGlobalGuards(new UndeclaredQueryGuard());
  const fastify = app.getHttpAdapter().getInstance();
  const { document, operations } = buildOpenApi(app, API_ACCESS, API_WEBHOOKS);
  // The methods of each route that declare a scope, by Fastify route (`/api/v1/brands/:id`).
  const scoped = new Map<string, Set<string>>();
  for (const o of operations.filter((op) => op.access.kind === 'scope')) {
    const route = toFastifyPath(o.path);
    scoped.set(route, (scoped.get(route) ?? new Set()).add(o.method));
  }
  installRequestPipeline(fastify, {
    needsCredentials: (method, route, url) => (route === undefined ? url.startsWith('/api/v1/') : scoped.get(route)?.has(method === 'HEAD' ? 'GET' : method) === true),
    authenticator: app.get(Authenticator),
    limiter: app.get(RateLimiter),
    logger: app.get(ROOT_LOGGER),
    usage: app.get(UsageRecorder),
    bodyMaxKeys: config.bodyMaxKeys,
  });
  // The MCP server (DESIGN §16) answers the gate's refusals in its protocol's terms.
  installMcpAnswers(fastify);
  serveApiDocumentation(app, document);
  // The dashboard (DESIGN §15): a page at /app that reads this API with the user's key.
  serveDashboard(fastify);
  return app;
}
