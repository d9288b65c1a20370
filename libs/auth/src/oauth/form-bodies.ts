import { parse } from 'node:querystring';
import type { FastifyInstance } from 'fastify';
import { ApiError, toErrorResponse } from '@libs/http';
import { isFormRequest } from './oauth-errors';

export const OAUTH_PATH_PREFIX = '/api/oauth/';

/**
 * application/x-www-form-urlencoded bodies (as OAuth clients send them) are for /api/oauth/*
 * only: every other route answers 415 UNSUPPORTED_MEDIA_TYPE for them, before the body is read.
 *
 * The parser is Node's querystring (objects without a prototype), on at most `maxParameters`
 * parameters (BODY_MAX_KEYS; more is 400 before parsing). Repeated parameters arrive as arrays
 * and are refused by readOAuthParams.
 */
export function acceptFormBodiesOnOAuthOnly(fastify: FastifyInstance, maxParameters: number): void {
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    let parameters = 1;
    for (let at = text.indexOf('&'); at !== -1 && parameters <= maxParameters; at = text.indexOf('&', at + 1)) parameters++;
    if (parameters > maxParameters) return done(ApiError.validation([{ field: 'body', message: `body holds more than ${maxParameters} parameters` }]), undefined);
    done(null, parse(text));
  });
  fastify.addHook('onRequest', async (request, reply) => {
    if (!isFormRequest(request.headers)) return;
    const path = request.routeOptions.url ?? request.url.split('?')[0];
    if (path.startsWith(OAUTH_PATH_PREFIX)) return;
    const { status, body } = toErrorResponse(new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send application/json (form-encoded bodies are accepted on /api/oauth/ only)'));
    return reply.status(status).send(body);
  });
}
