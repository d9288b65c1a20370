import type { FastifyInstance } from 'fastify';
import { ApiError, toErrorResponse } from '@libs/http';
import { isFormRequest } from './oauth-errors';

export const OAUTH_PATH_PREFIX = '/api/oauth/';

/**
 * application/x-www-form-urlencoded bodies (as OAuth clients send them) are for /api/oauth/*
 * only: every other route answers 415 UNSUPPORTED_MEDIA_TYPE for them, before the body is read.
 *
 * The parser itself is Nest's: FastifyAdapter registers a urlencoded parser (fast-querystring)
 * at init, so registering @fastify/formbody as well fails with "Content type parser already
 * present". Repeated parameters arrive as arrays and are refused by readOAuthParams.
 */
export function acceptFormBodiesOnOAuthOnly(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (request, reply) => {
    if (!isFormRequest(request.headers)) return;
    const path = request.routeOptions.url ?? request.url.split('?')[0];
    if (path.startsWith(OAUTH_PATH_PREFIX)) return;
    const { status, body } = toErrorResponse(new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send application/json (form-encoded bodies are accepted on /api/oauth/ only)'));
    return reply.status(status).send(body);
  });
}
