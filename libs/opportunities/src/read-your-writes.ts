import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { REDIS } from '@libs/redis';
import type { FeedPosition } from '@libs/event-store';
import { projectionsReached } from '@libs/projection-engine';

const TTL_SECONDS = 60;
const pad = (n: bigint) => n.toString().padStart(20, '0');
const encode = (p: FeedPosition) => `${pad(p.commit)}:${pad(p.prepare)}`;
const decode = (s: string): FeedPosition => {
  const [c, p] = s.split(':');
  return { commit: BigInt(c), prepare: BigInt(p) };
};

/** Keeps the larger of the stored and the given position (positions encode to sortable strings). */
const KEEP_MAX = `local v = redis.call('GET', KEYS[1])
if (not v) or v < ARGV[1] then redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) else redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return 1`;

/** The projection the list and the single read are served from. */
export const READ_MODEL_PROJECTIONS = ['opportunities'];

/**
 * Read-your-writes for a caller: a command remembers (in Redis, shared by every API process)
 * the feed position of the caller's last write; the caller's next read waits, a bounded time,
 * until the projections it reads have reached that position.
 */
@Injectable()
export class ReadYourWrites {
  private readonly keepMax: (key: string, position: string, ttl: number) => Promise<unknown>;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly dataSource: DataSource,
  ) {
    // EVALSHA with a fallback to EVAL (ioredis loads the script once per connection).
    if (!('rywKeepMax' in redis)) redis.defineCommand('rywKeepMax', { numberOfKeys: 1, lua: KEEP_MAX });
    const command = (redis as unknown as { rywKeepMax: (key: string, position: string, ttl: number) => Promise<unknown> }).rywKeepMax;
    this.keepMax = command.bind(redis);
  }

  async wrote(subject: string, position: FeedPosition): Promise<void> {
    await this.keepMax(`ryw:${subject}`, encode(position), TTL_SECONDS);
  }

  /** Waits until every named projection has reached the caller's last write (at most `timeoutMs`). */
  async waitFor(subject: string, projections: readonly string[], timeoutMs = 2000): Promise<boolean> {
    const stored = await this.redis.get(`ryw:${subject}`);
    if (!stored) return true;
    const target = decode(stored);
    const deadline = Date.now() + timeoutMs;
    for (let delay = 2; ; delay = Math.min(delay * 2, 25)) {
      if (await projectionsReached(this.dataSource, projections, target)) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}
