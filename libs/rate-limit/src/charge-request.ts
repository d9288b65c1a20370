import { Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Principal } from '@libs/auth';
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
export async function chargeRequest(limiter: RateLimiter, principal: Principal, reply: FastifyReply): Promise<void> {
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
