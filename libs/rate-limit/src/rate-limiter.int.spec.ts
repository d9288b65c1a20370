import type { Redis } from 'ioredis';
import { loadConfig } from '../../config/src';
import { createRedis } from '../../redis/src';
import { testRedisPrefix } from '../../../test/support/test-database';
import { RateLimiter } from './rate-limiter.service';

/** Two limiters on one Redis prefix stand for two API processes sharing one budget. */
function limiters(tiers: Record<string, { perMinute: number; perDay: number; burst: number }>) {
  const config = loadConfig({ ...process.env, DATABASE_URL: 'postgres://x@127.0.0.1/x', REDIS_PREFIX: testRedisPrefix(), RATE_LIMIT_TIERS: JSON.stringify(tiers) });
  const clients: Redis[] = [createRedis(config), createRedis(config)];
  return { a: new RateLimiter(clients[0], config), b: new RateLimiter(clients[1], config), clients };
}

describe('rate limiter with request leases (real Redis)', () => {
  it('takes a busy subject several requests at a time, yet two processes never exceed the shared quota', async () => {
    const { a, b, clients } = limiters({ enterprise: { perMinute: 100_000, perDay: 1_000, burst: 0 } });
    try {
      let allowed = 0;
      let refused = 0;
      const calls: number[] = [];
      const count = (c: Redis) => {
        const send = c.sendCommand.bind(c);
        c.sendCommand = ((command: { name: string }) => {
          if (command.name === 'evalsha' || command.name === 'eval') calls.push(1);
          return send(command as never);
        }) as typeof c.sendCommand;
      };
      clients.forEach(count);
      for (let round = 0; round < 60; round++) {
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).take('key-1', 'enterprise')));
        for (const r of results) if (r.allowed) allowed++;
        else refused++;
      }
      // The day's 1,000 exactly (leases shrink to one request near the limit), the rest refused.
      expect(allowed).toBe(1_000);
      expect(refused).toBe(200);
      // Fewer round trips than requests: early leases served several requests each.
      expect(calls.length).toBeLessThan(1_200);
    } finally {
      clients.forEach((c) => c.disconnect());
    }
  });

  it('asks for one request first, then for a lease, and serves the lease without a call', async () => {
    const { a, clients } = limiters({ enterprise: { perMinute: 1_000_000, perDay: 100_000_000, burst: 0 } });
    try {
      const day = `rl:{key-2}:d:${new Date().toISOString().slice(0, 10)}`;
      await a.take('key-2', 'enterprise'); // no history: one request
      expect(Number(await clients[0].get(day))).toBe(1);
      await a.take('key-2', 'enterprise'); // a lease of 64 (1 % of what is left, capped): this request and 63 more
      expect(Number(await clients[0].get(day))).toBe(65);
      for (let i = 0; i < 63; i++) expect((await a.take('key-2', 'enterprise')).allowed).toBe(true);
      expect(Number(await clients[0].get(day))).toBe(65); // served from the lease
      await a.take('key-2', 'enterprise');
      expect(Number(await clients[0].get(day))).toBe(65 + 64);
    } finally {
      clients.forEach((c) => c.disconnect());
    }
  });
});
