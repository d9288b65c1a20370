import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { TIER_LIMITS, type Tier } from '@libs/auth';
import { APP_CONFIG, sectionOf, type AppConfig } from '@libs/config';
import { RATE_LIMIT_CONFIG } from './rate-limit.config';
import { REDIS } from '@libs/redis';
import { decide, grantedOf, msUntilUtcMidnight, resolveLimits, utcDay, type Limits, type RateLimitDecision } from './domain/rate-limit-decision';
import { LEASES, RequestLeases } from './domain/request-leases';
import { RATE_LIMIT_SCRIPT } from './rate-limit.script';

type ScriptMode = 'take' | 'peek' | 'spend';
interface ScriptedRedis {
  aovRateLimit(numKeys: number, ...keysAndArgs: (string | number)[]): Promise<number[]>;
}

/**
 * Runs the rate-limit script (loaded once per connection, then EVALSHA) against the shared Redis,
 * so every API process draws on one budget per subject. Keys carry the subject as a hash tag, so
 * one call's keys share a slot on a Redis cluster.
 */
@Injectable()
export class RateLimiter {
  readonly limits: Record<Tier, Limits>;
  private readonly scripted: ScriptedRedis;
  /** The current UTC day ("YYYY-MM-DD") and when it ends, so the hot path formats no dates. */
  private day = '';
  private dayEnds = 0;
  /** Requests taken ahead for busy subjects (see RequestLeases), and the call in flight per subject. */
  private readonly leases = new RequestLeases();
  private readonly inflight = new Map<string, Promise<void>>();

  constructor(
    @Inject(REDIS) redis: Redis,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.limits = resolveLimits(TIER_LIMITS, sectionOf(config, RATE_LIMIT_CONFIG).rateLimitTiers);
    if (!(redis as unknown as Partial<ScriptedRedis>).aovRateLimit) redis.defineCommand('aovRateLimit', { lua: RATE_LIMIT_SCRIPT });
    this.scripted = redis as unknown as ScriptedRedis;
  }

  /**
   * Checks the subject's minute bucket and UTC-day quota, and consumes one from both only if both
   * allow it. A subject busy in this process has its requests taken from Redis several at a time
   * (a lease: no more than its recent demand here, at most 64, at most 1 % of what is left, for at
   * most 1 s; see RequestLeases) and served from this process meanwhile. One call per subject is in
   * flight at a time: concurrent requests wait for it and then use its lease.
   */
  async take(subject: string, tier: Tier, mode: ScriptMode = 'take'): Promise<RateLimitDecision> {
    const limits = this.limits[tier];
    if (mode !== 'take') return this.call(subject, limits, mode);
    this.leases.saw(subject, Date.now());
    for (;;) {
      const leased = this.leases.take(subject, limits, Date.now());
      if (leased) return leased;
      const pending = this.inflight.get(subject);
      if (!pending) break;
      await pending;
    }
    const call = this.call(subject, limits, mode);
    const settled = call.then(
      () => undefined,
      () => undefined,
    );
    this.inflight.set(subject, settled);
    void settled.then(() => {
      if (this.inflight.get(subject) === settled) this.inflight.delete(subject);
    });
    return call;
  }

  private async call(subject: string, limits: Limits, mode: ScriptMode): Promise<RateLimitDecision> {
    const now = Date.now();
    if (now >= this.dayEnds) {
      this.day = utcDay(now);
      this.dayEnds = now + msUntilUtcMidnight(now);
    }
    const size = mode === 'take' ? this.leases.sizeFor(subject) : 1;
    const reply = await this.scripted.aovRateLimit(
      2,
      `rl:{${subject}}:m`,
      `rl:{${subject}}:d:${this.day}`,
      size > 1 ? `take:${size}:${LEASES.share}` : mode,
      'b',
      limits.perMinute + limits.burst,
      limits.perMinute,
      'c',
      limits.perDay,
      this.dayEnds - now,
    );
    const decision = decide(reply, limits);
    // A lease never outlives the UTC day it was charged to.
    return mode === 'take' ? this.leases.record(subject, decision, limits, grantedOf(reply), Date.now(), this.dayEnds) : decision;
  }

  /**
   * A bucket of `perMinute` failures per minute for a client address. "spend" counts a failure;
   * the reply says how many remain and, when none, in how many ms the next attempt is allowed.
   */
  async addressBucket(address: string, perMinute: number, mode: ScriptMode): Promise<{ remaining: number; msUntilNext: number }> {
    const reply = await this.scripted.aovRateLimit(1, `rl:{addr:${address}}:auth-failures`, mode, 'b', perMinute, perMinute);
    return { remaining: reply[1], msUntilNext: reply[2] };
  }
}
