import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { AuthFailureLimiter } from '@libs/auth';
import { APP_CONFIG, InjectConfig, type AppConfig } from '@libs/config';
import { RATE_LIMIT_CONFIG, type RateLimitConfig } from './rate-limit.config';
import { ApiError } from '@libs/http';
import { REDIS, RedisSubscriber } from '@libs/redis';
import { RateLimiter } from './rate-limiter.service';

const MAX_BLOCKED = 100_000;

/**
 * Limits failed authentication per client address (AUTH_FAILURES_PER_MINUTE, a token bucket in
 * the shared rate-limit script). Every failure is counted in Redis, atomically and across
 * processes. When an address runs out, the process that saw it blocks the address locally and
 * publishes the block to every API process, so the check before each authentication is a map
 * lookup, not a Redis round trip. A process that missed the message (reconnecting) blocks the
 * address at its next failure there, since Redis holds the count.
 */
@Injectable()
export class RedisAuthFailureLimiter implements AuthFailureLimiter, OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('AuthFailureLimiter');
  /** address → epoch ms until which it is refused. */
  private readonly blocked = new Map<string, number>();
  private subscriber: RedisSubscriber | null = null;
  private readonly channel: string;

  constructor(
    private readonly limiter: RateLimiter,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectConfig(RATE_LIMIT_CONFIG) private readonly limits: RateLimitConfig,
  ) {
    this.channel = `${config.redisPrefix}:ratelimit:address-blocked`;
  }

  async onModuleInit(): Promise<void> {
    this.subscriber = await RedisSubscriber.open(this.config, {
      channels: {
        [this.channel]: (message) => {
          const space = message.indexOf(' ');
          const ms = Number(message.slice(0, space));
          if (space > 0 && ms > 0) this.block(message.slice(space + 1), ms);
        },
      },
    });
  }

  onApplicationShutdown(): void {
    this.subscriber?.close();
  }

  async assertAllowed(address: string): Promise<void> {
    const until = this.blocked.get(address);
    if (until === undefined) return;
    const left = until - Date.now();
    if (left <= 0) {
      this.blocked.delete(address);
      return;
    }
    const retryAfter = String(Math.max(1, Math.ceil(left / 1000)));
    throw new ApiError(
      429,
      'RATE_LIMITED',
      'Too many failed authentication attempts from this address; retry later',
      { limit: 'auth-failures', retryAfterSeconds: Number(retryAfter) },
      { 'retry-after': retryAfter },
    );
  }

  async recordFailure(address: string): Promise<void> {
    try {
      const { remaining, msUntilNext } = await this.limiter.addressBucket(address, this.limits.authFailuresPerMinute, 'spend');
      if (remaining >= 1 || msUntilNext <= 0) return;
      this.block(address, msUntilNext);
      await this.redis.publish(this.channel, `${msUntilNext} ${address}`);
    } catch (error) {
      // The 401 stands; an unreachable Redis must not turn it into a 500.
      this.logger.warn(`could not record a failed authentication: ${(error as Error).message}`);
    }
  }

  private block(address: string, ms: number): void {
    if (this.blocked.size >= MAX_BLOCKED) {
      const now = Date.now();
      for (const [a, until] of this.blocked) if (until <= now) this.blocked.delete(a);
      if (this.blocked.size >= MAX_BLOCKED) this.blocked.delete(this.blocked.keys().next().value as string);
    }
    const until = Date.now() + ms;
    if ((this.blocked.get(address) ?? 0) < until) this.blocked.set(address, until);
  }
}
