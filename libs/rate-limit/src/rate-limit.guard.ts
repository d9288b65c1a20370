import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { PUBLIC_METADATA, type AuthenticatedRequest } from '../../auth/src';
import { RateLimiter } from './rate-limiter.service';
import { chargeRequest, wasCharged } from './request-gate';

/**
 * The third step in front of an operation (auth → scope → rate limit) for a request the request
 * gate (`installRequestGate`, which charges requests as they arrive) has not charged: registered
 * as an APP_GUARD after AccessGuard, it charges the request to the principal's subject.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: RateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    if (wasCharged(request)) return true;
    const principal = request.principal;
    if (!principal) {
      if (this.reflector.getAllAndOverride<boolean>(PUBLIC_METADATA, [context.getHandler(), context.getClass()])) return true;
      throw new Error('RateLimitGuard ran before authentication: register it after AccessGuard');
    }
    await chargeRequest(this.limiter, principal, request, http.getResponse<FastifyReply>());
    return true;
  }
}
