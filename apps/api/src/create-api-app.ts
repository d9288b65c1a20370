import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ModuleMetadata } from '@nestjs/common';
import { Logger } from 'nestjs-pino';
import type { AppConfig } from '../../../libs/config/src';
import { ROOT_LOGGER, collectProcessMetrics, instrumentHttp, logRequests, requestIdOf } from '../../../libs/observability/src';
import { ALL_SCOPES, PUBLIC_METADATA, SCOPE_METADATA, acceptFormBodiesOnOAuthOnly } from '../../../libs/auth/src';
import { buildOpenApiDocument, recordRoutes, serveApiDocumentation, type AccessDeclarations } from '../../../libs/http/src';
import { ApiModule } from './api.module';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** How routes declare access (the OpenAPI document derives each operation's security from it). */
export const API_ACCESS: AccessDeclarations = { scopes: ALL_SCOPES, scopeMetadataKey: SCOPE_METADATA, publicMetadataKey: PUBLIC_METADATA };

/** Builds the Fastify-based Nest application (not yet listening). */
export async function createApiApp(config: AppConfig, extraImports: ModuleMetadata['imports'] = []): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    // A number of hops becomes Fastify's function form: trust the nearest `n` proxies.
    trustProxy: typeof config.trustProxy === 'number' ? (_address: string, hop: number) => hop < (config.trustProxy as number) : config.trustProxy,
    return503OnClosing: true,
    genReqId: requestIdOf,
  });
  recordRoutes(adapter.getInstance());
  acceptFormBodiesOnOAuthOnly(adapter.getInstance());
  adapter.getInstance().addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  const app = await NestFactory.create<NestFastifyApplication>(ApiModule.forRoot(config, extraImports), adapter, {
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  collectProcessMetrics();
  instrumentHttp(app.getHttpAdapter().getInstance());
  logRequests(app.getHttpAdapter().getInstance(), app.get(ROOT_LOGGER));
  serveApiDocumentation(app, buildOpenApiDocument(app, API_ACCESS));
  return app;
}
