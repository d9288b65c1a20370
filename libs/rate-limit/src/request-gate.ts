import { Logger } from '@nestjs/common';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AuthenticatedRequest, Authenticator, Principal } from '@libs/auth';
import { ApiError } from '@libs/http';
import type { RateLimiter } from './rate-limiter.service';

const logger = new Logger('RateLimit');
let lastFailureLog = 0;

/**
 * Charges one request to the principal's budget and sets the rate-limit headers on the reply, so
 * every later answer to it (200, 400, 403, 404...) carries them; over a limit, 429 RATE_LIMITED
 * with Retry-After. If Redis cannot be reached the request goes through without headers (logged
 * at most every 10 s): an outage of the limiter is not an outage of the API.
 */
async function chargeRequest(limiter: RateLimiter, principal: Principal, reply: FastifyReply): Promise<void> {
  let decision;
  try {
    decision = await limiter.take(principal.subject, principal.tier);
  } catch (error) {
    if (Date.now() - lastFailureLog > 10_000) {
      lastFailureLog = Date.now();
      logger.error(`rate limiter unavailable, letting requests through: ${(error as Error).message}`);
    }
    return;
  }
  void reply.headers(decision.headers);
  if (!decision.allowed) {
    throw new ApiError(
      429,
      'RATE_LIMITED',
      decision.binding === 'day' ? 'The daily request quota of this credential is used up' : 'Too many requests for this credential; slow down',
      { limit: decision.binding, retryAfterSeconds: decision.retryAfterSeconds },
      decision.headers,
    );
  }
}

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
