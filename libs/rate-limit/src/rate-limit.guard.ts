import { Injectable, Logger, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { PUBLIC_METADATA, type AuthenticatedRequest } from '../../auth/src';
import { ApiError } from '../../http/src';
import { RateLimiter } from './rate-limiter.service';

/**
 * The third step in front of every operation (auth → scope → rate limit): registered as an
 * APP_GUARD after AccessGuard, it charges the request to the principal's subject and sets the
 * rate-limit headers on the reply itself, so they survive any later error response (404, 400…).
 * Over a limit it answers 429 RATE_LIMITED with Retry-After. If Redis cannot be reached the
 * request is let through without headers (logged): an outage of the limiter is not an outage of
 * the API.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly logger = new Logger('RateLimit');
  private lastFailureLog = 0;

  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: RateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const principal = http.getRequest<AuthenticatedRequest>().principal;
    if (!principal) {
      if (this.reflector.getAllAndOverride<boolean>(PUBLIC_METADATA, [context.getHandler(), context.getClass()])) return true;
      throw new Error('RateLimitGuard ran before authentication: register it after AccessGuard');
    }
    let decision;
    try {
      decision = await this.limiter.take(principal.subject, principal.tier);
    } catch (error) {
      if (Date.now() - this.lastFailureLog > 10_000) {
        this.lastFailureLog = Date.now();
        this.logger.error(`rate limiter unavailable, letting requests through: ${(error as Error).message}`);
      }
      return true;
    }
    http.getResponse<FastifyReply>().headers(decision.headers);
    if (!decision.allowed) {
      throw new ApiError(
        429,
        'RATE_LIMITED',
        decision.binding === 'day' ? 'The daily request quota of this credential is used up' : 'Too many requests for this credential; slow down',
        { limit: decision.binding, retryAfterSeconds: decision.retryAfterSeconds },
        decision.headers,
      );
    }
    return true;
  }
}
