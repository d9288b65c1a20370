import { Global, Module } from '@nestjs/common';
import { AUTH_FAILURE_LIMITER } from '@libs/auth';
import { RedisAuthFailureLimiter } from './auth-failure-limiter';
import { RateLimiter } from './rate-limiter.service';

/**
 * Rate limits per credential (charged by `chargeRequest`, which the API's request gate calls) and
 * failed-authentication limits per address. Global so that the Authenticator (AuthModule) finds
 * AUTH_FAILURE_LIMITER.
 */
@Global()
@Module({
  providers: [
    RateLimiter,
    RedisAuthFailureLimiter,
    { provide: AUTH_FAILURE_LIMITER, useExisting: RedisAuthFailureLimiter },
  ],
  exports: [RateLimiter, AUTH_FAILURE_LIMITER],
})
export class RateLimitModule {}
