import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '@libs/config';
import { connectRedis } from './redis-connection';

/** Injection token of the shared ioredis client. Keys are prefixed with `${REDIS_PREFIX}:`. */
export const REDIS = Symbol('REDIS');

export function createRedis(config: Pick<AppConfig, 'redisUrl' | 'redisPrefix'> & Partial<Pick<AppConfig, 'redisClusterNodes'>>): Redis {
  return connectRedis(config, {
    keyPrefix: `${config.redisPrefix}:`,
    maxRetriesPerRequest: 3,
    enableAutoPipelining: true,
    connectTimeout: 5000,
  });
}

class RedisCloser implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}
  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

@Global()
@Module({
  providers: [{ provide: REDIS, inject: [APP_CONFIG], useFactory: createRedis }, RedisCloser],
  exports: [REDIS],
})
export class RedisModule {}
