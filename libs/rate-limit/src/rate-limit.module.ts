import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AUTH_FAILURE_LIMITER } from '../../auth/src';
import { RedisAuthFailureLimiter } from './auth-failure-limiter';
import { RateLimitGuard } from './rate-limit.guard';
import { RateLimiter } from './rate-limiter.service';

/**
 * Rate limits per credential and failed-authentication limits per address. Global so that the
 * Authenticator (AuthModule) finds AUTH_FAILURE_LIMITER. Import it AFTER AuthModule: global guards
 * run in registration order, and this guard needs the principal AccessGuard sets.
 */
@Global()
@Module({
  providers: [
    RateLimiter,
    RedisAuthFailureLimiter,
    { provide: AUTH_FAILURE_LIMITER, useExisting: RedisAuthFailureLimiter },
    { provide: APP_GUARD, useClass: RateLimitGuard },
  ],
  exports: [RateLimiter, AUTH_FAILURE_LIMITER],
})
export class RateLimitModule {}
