import type { Redis } from 'ioredis';
import { loadConfig } from '@libs/config';
import { RATE_LIMIT_CONFIG } from './rate-limit.config';
import { createRedis } from '@libs/redis';
import { testRedisPrefix } from '../../../test/support/test-database';
import { RateLimiter } from './rate-limiter.service';

/** Two limiters on one Redis prefix stand for two API processes sharing one budget. */
function limiters(tiers: Record<string, { perMinute: number; perDay: number; burst: number }>) {
  const config = loadConfig({ ...process.env, DATABASE_URL: 'postgres://x@127.0.0.1/x', REDIS_PREFIX: testRedisPrefix(), RATE_LIMIT_TIERS: JSON.stringify(tiers) }, [RATE_LIMIT_CONFIG]);
  const clients: Redis[] = [createRedis(config), createRedis(config)];
  return { a: new RateLimiter(clients[0], config), b: new RateLimiter(clients[1], config), clients };
}

/** Counts the rate-limit script calls a client sends from now on. */
function countScriptCalls(client: Redis): () => number {
  let calls = 0;
  const send = client.sendCommand.bind(client);
  client.sendCommand = ((command: { name: string }) => {
    if (command.name === 'evalsha' || command.name === 'eval') calls++;
    return send(command as never);
  }) as typeof client.sendCommand;
  return () => calls;
}

describe('rate limiter with request leases (real Redis)', () => {
  it('takes a busy subject several requests at a time, yet two processes never exceed the shared quota', async () => {
    const { a, b, clients } = limiters({ enterprise: { perMinute: 100_000, perDay: 1_000, burst: 0 } });
    try {
      let allowed = 0;
      let refused = 0;
      const counters = clients.map(countScriptCalls);
      for (let round = 0; round < 60; round++) {
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).take('key-1', 'enterprise')));
        for (const r of results) if (r.allowed) allowed++;
        else refused++;
      }
      // The day's 1,000 exactly (leases shrink to one request near the limit), the rest refused.
      expect(allowed).toBe(1_000);
      expect(refused).toBe(200);
      // Fewer round trips than requests: early leases served several requests each.
      expect(counters[0]() + counters[1]()).toBeLessThan(1_200);
    } finally {
      clients.forEach((c) => c.disconnect());
    }
  });

  const dayKey = (subject: string) => `rl:{${subject}}:d:${new Date().toISOString().slice(0, 10)}`;

  it('charges an occasional client one request per request (no lease without demand)', async () => {
    const { a, clients } = limiters({ enterprise: { perMinute: 1_000_000, perDay: 100_000_000, burst: 0 } });
    try {
      for (let i = 1; i <= 3; i++) {
        await a.take('sparse', 'enterprise');
        expect(Number(await clients[0].get(dayKey('sparse')))).toBe(i);
        await new Promise((r) => setTimeout(r, 1100));
      }
    } finally {
      clients.forEach((c) => c.disconnect());
    }
  }, 10_000);

  it('serves a busy client mostly from leases, charging at most one lease more than it used', async () => {
    const { a, clients } = limiters({ enterprise: { perMinute: 1_000_000, perDay: 100_000_000, burst: 0 } });
    try {
      const calls = countScriptCalls(clients[0]);
      for (let i = 0; i < 300; i++) expect((await a.take('busy', 'enterprise')).allowed).toBe(true);
      const charged = Number(await clients[0].get(dayKey('busy')));
      expect(charged).toBeGreaterThanOrEqual(300);
      expect(charged).toBeLessThanOrEqual(300 + 64);
      expect(calls()).toBeLessThan(60);
    } finally {
      clients.forEach((c) => c.disconnect());
    }
  });

  it('makes one call at a time for concurrent requests of a subject, and charges them about what they use', async () => {
    const { a, clients } = limiters({ enterprise: { perMinute: 1_200, perDay: 200_000, burst: 200 } });
    try {
      const results = await Promise.all(Array.from({ length: 100 }, () => a.take('burst', 'enterprise')));
      expect(results.every((r) => r.allowed)).toBe(true);
      const charged = Number(await clients[0].get(dayKey('burst')));
      expect(charged).toBeGreaterThanOrEqual(100);
      expect(charged).toBeLessThanOrEqual(100 + 14); // a lease is at most 1 % of the ~1,400 left
    } finally {
      clients.forEach((c) => c.disconnect());
    }
  });
});
