import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { FastifyInstance } from 'fastify';
import { DOCS_PATH, OPENAPI_JSON_PATH } from './build-document';

/** The Swagger UI files the reference page loads, with their media types (from the installed swagger-ui-dist; no CDN). */
const UI_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-16x16.png': 'image/png',
  'favicon-32x32.png': 'image/png',
  'oauth2-redirect.html': 'text/html; charset=utf-8',
  'oauth2-redirect.js': 'application/javascript; charset=utf-8',
};

function swaggerUiRoot(): string {
  const absolutePath = createRequire(__filename)('swagger-ui-dist/absolute-path.js') as () => string;
  return absolutePath();
}

function page(title: string): string {
  const asset = (name: string) => `${DOCS_PATH}/${name}`;
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>${title}</title>
    <link rel="stylesheet" type="text/css" href="${asset('swagger-ui.css')}" />
    <link rel="stylesheet" type="text/css" href="${asset('index.css')}" />
    <link rel="icon" type="image/png" href="${asset('favicon-32x32.png')}" sizes="32x32" />
    <link rel="icon" type="image/png" href="${asset('favicon-16x16.png')}" sizes="16x16" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${asset('swagger-ui-bundle.js')}" charset="UTF-8"></script>
    <script src="${asset('swagger-ui-standalone-preset.js')}" charset="UTF-8"></script>
    <script src="${asset('swagger-initializer.js')}" charset="UTF-8"></script>
  </body>
</html>
`;
}

const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(OPENAPI_JSON_PATH)},
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: true,
    displayOperationId: true,
    oauth2RedirectUrl: window.location.origin + ${JSON.stringify(`${DOCS_PATH}/oauth2-redirect.html`)},
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout',
  });
  window.ui.initOAuth({ usePkceWithAuthorizationCodeGrant: true });
};
`;

/**
 * Serves the document (serialised once, here) at `GET /api/v1/openapi.json` and a Swagger UI
 * reference page at `GET /docs` with its assets from the local swagger-ui-dist. Both are plain Fastify routes,
 * outside Nest's guards: open to all. Call before `app.init()`.
 */
export function serveApiDocumentation(app: INestApplication, document: OpenAPIObject): void {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  const json = JSON.stringify(document);
  const html = page(document.info.title);
  fastify.get(OPENAPI_JSON_PATH, (_request, reply) => {
    void reply.header('cache-control', 'public, max-age=300').type('application/json; charset=utf-8').send(json);
  });
  for (const path of [DOCS_PATH, `${DOCS_PATH}/`, `${DOCS_PATH}/index.html`]) {
    fastify.get(path, (_request, reply) => {
      void reply.type('text/html; charset=utf-8').send(html);
    });
  }
  fastify.get(`${DOCS_PATH}/swagger-initializer.js`, (_request, reply) => {
    void reply.type('application/javascript; charset=utf-8').send(INITIALIZER);
  });
  // The assets are a fixed list of files, read once on first use: plain routes rather than
  // @fastify/static, whose ESM-only dependency (content-disposition) Jest cannot load.
  const root = swaggerUiRoot();
  const cache = new Map<string, Buffer>();
  for (const [name, type] of Object.entries(UI_ASSETS)) {
    fastify.get(`${DOCS_PATH}/${name}`, (_request, reply) => {
      let content = cache.get(name);
      if (!content) cache.set(name, (content = readFileSync(join(root, name))));
      void reply.header('cache-control', 'public, max-age=86400').type(type).send(content);
    });
  }
}
