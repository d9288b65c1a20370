import type { FastifyInstance } from 'fastify';
import type { AuthenticatedRequest, Authenticator } from '@libs/auth';
import { chargeRequest, type RateLimiter } from '@libs/rate-limit';

/**
 * Authentication and rate limiting run when the request arrives, before its body is read: without
 * valid credentials it is 401 and over its limit 429 whatever its body, and every answer to an
 * authenticated request (a 400 for its JSON, 413, 415, 403 for its scope, 404) carries the
 * rate-limit headers. `needsCredentials` says which requests: the routes that declare a scope,
 * and unknown paths under /api/v1/ (401 without credentials, 404 with them). The scope is still
 * checked by AccessGuard, which knows the handler.
 */
export function installRequestGate(
  fastify: FastifyInstance,
  needsCredentials: (method: string, route: string | undefined, url: string) => boolean,
  authenticator: Authenticator,
  limiter: RateLimiter,
): void {
  fastify.addHook('onRequest', async (request, reply) => {
    if (!needsCredentials(request.method, request.routeOptions.url, request.url)) return;
    const principal = await authenticator.authenticate(request.headers, request.ip);
    (request as AuthenticatedRequest).principal = principal;
    await chargeRequest(limiter, principal, reply);
  });
}
