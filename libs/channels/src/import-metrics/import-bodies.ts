import type { FastifyInstance } from 'fastify';
import { ApiError } from '@libs/http';

/** The media types of an import and the format each is. */
export const IMPORT_MEDIA_TYPES = { 'text/csv': 'csv', 'application/x-ndjson': 'ndjson' } as const;

/** What a route sets (`@RouteConfig`) to take import bodies; every other route answers them 415. */
export const IMPORT_ROUTE_CONFIG = { importBody: true } as const;

/**
 * Body parsers for imports (text/csv, application/x-ndjson) on the routes that opt in
 * (IMPORT_ROUTE_CONFIG): the raw bytes, at most `limit` (the JSON bodies' 1 MB limit does not apply
 * to them); a larger file is refused with 400 as soon as it passes the limit, without reading the
 * rest. A media type another module already parses is left to it.
 */
export function installImportBodyParsers(fastify: FastifyInstance, limit: number): void {
  for (const type of Object.keys(IMPORT_MEDIA_TYPES)) {
    if (fastify.hasContentTypeParser(type)) continue;
    fastify.addContentTypeParser(type, (request, payload, done) => {
      if (!(request.routeOptions?.config as { importBody?: boolean } | undefined)?.importBody) {
        payload.resume();
        return done(new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'This operation takes application/json'), undefined);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let finished = false;
      const finish = (error: Error | null, body?: Buffer) => {
        if (finished) return;
        finished = true;
        done(error, body);
      };
      payload.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) {
          finish(ApiError.validation([{ field: 'body', message: `the file is larger than ${limit / 1024 / 1024} MB` }]));
          payload.removeAllListeners('data');
          payload.resume();
          return;
        }
        chunks.push(chunk);
      });
      payload.on('end', () => finish(null, Buffer.concat(chunks)));
      payload.on('error', (error: Error) => finish(error));
    });
  }
}
