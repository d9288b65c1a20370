import { loadConfig, sectionOf } from '@libs/config';
import { QUEUE_CONFIG, Queues, type QueueDefinition } from '@libs/queue';
import { createRedis, isCluster, RedisSubscriber } from '@libs/redis';
import { RateLimiter, RATE_LIMIT_CONFIG } from '@libs/rate-limit';
import { RunProgress, answerQueue, ANALYSIS_CONFIG } from '@libs/analysis';
import { DELIVERY_QUEUE } from '@libs/webhooks';
import { CHANNEL_SYNC_QUEUE } from '@libs/channels';
import { startRedisCluster, type LocalRedisCluster } from '../support/redis-cluster';
import { testRedisPrefix } from '../support/test-database';
import { until } from '../support/until';

/**
 * Issue 34 part 3: every Redis key and BullMQ queue of the service on a real three-master Redis
 * Cluster (redis-server processes on loopback ports, joined by redis-cli --cluster create).
 */
describe('on a Redis Cluster (REDIS_CLUSTER_NODES)', () => {
  let cluster: LocalRedisCluster;
  const prefix = testRedisPrefix();
  let env: Record<string, string>;

  beforeAll(async () => {
    cluster = await startRedisCluster(3, 0);
    env = { REDIS_CLUSTER_NODES: cluster.seeds, REDIS_PREFIX: prefix };
  }, 60_000);
  afterAll(() => cluster?.stop());

  const configOf = () => loadConfig(env, [QUEUE_CONFIG, RATE_LIMIT_CONFIG, ANALYSIS_CONFIG]);

  it('puts each queue on one node, spreads the queues over the masters, and runs their jobs', async () => {
    const config = configOf();
    const analysis = sectionOf(config, ANALYSIS_CONFIG);
    const names = [...(['chatgpt', 'claude', 'perplexity', 'gemini'] as const).map((p) => answerQueue(p, analysis).name), DELIVERY_QUEUE, CHANNEL_SYNC_QUEUE.name, '{page-audits}'];
    for (const name of names) expect(name).toMatch(/^\{[^{}]+\}$/);
    const owners = new Set(await Promise.all(names.map((n) => cluster.masterOf(n))));
    expect(owners.size).toBeGreaterThan(1);

    const queues = new Queues(sectionOf(config, QUEUE_CONFIG));
    try {
      const seen = new Map<string, number[]>();
      for (const name of names) {
        const definition: QueueDefinition = { name, concurrency: 2, globalConcurrency: 2, limiter: { max: 100, duration: 1000 } };
        queues.process<{ n: number }, void>(definition, async ({ n }) => void seen.set(name, [...(seen.get(name) ?? []), n]));
        const { queue } = queues.producer<{ n: number }>(definition);
        // The same job id twice is one job (the idempotency webhook deliveries and answer jobs rely on).
        await queue.addBulk([1, 2, 3, 3].map((n) => ({ name: 'j', data: { n }, opts: { jobId: `j-${n}` } })));
      }
      await until(() => names.every((n) => (seen.get(n)?.length ?? 0) >= 3), 30_000, 'every queue worked off');
      await new Promise((r) => setTimeout(r, 300));
      for (const name of names) expect(seen.get(name)!.sort()).toEqual([1, 2, 3]);

      // Every key of a queue is on the master of its slot, none elsewhere.
      const redis = createRedis(config);
      try {
        expect(isCluster(redis)).toBe(true);
        for (const name of names) {
          const home = await cluster.masterOf(name);
          for (const port of await cluster.masters()) {
            const node = (redis as unknown as { nodes(role: string): { options: { port: number }; keys(p: string): Promise<string[]> }[] }).nodes('master').find((n) => n.options.port === port)!;
            const keys = await node.keys(`${prefix}:bull:${name}:*`);
            if (port === home) expect(keys.length).toBeGreaterThan(0);
            else expect(keys).toEqual([]);
          }
        }
      } finally {
        redis.disconnect();
      }
    } finally {
      await queues.onApplicationShutdown();
    }
  });

  it('keeps rate limits atomic, runs the run-progress MULTI, and carries pub/sub across nodes', async () => {
    const config = configOf();
    const redis = createRedis(config);
    const subscriber: string[] = [];
    const sub = await RedisSubscriber.open(config, { channels: { [`${prefix}:credentials:revoked`]: (m) => subscriber.push(m) } });
    try {
      const limiter = new RateLimiter(redis, config);
      // Concurrent spends on one address bucket: exactly `perMinute` succeed, whichever node serves it.
      const results = await Promise.all(Array.from({ length: 25 }, () => limiter.addressBucket('203.0.113.9', 10, 'spend')));
      // Atomic: each spend sees the one before it, so 9 … 1 are seen once each, then the bucket stays empty.
      const remaining = results.map((r) => Math.floor(r.remaining)).sort((a, b) => b - a);
      expect(remaining).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, ...new Array(16).fill(0)]);
      expect(Math.floor((await limiter.addressBucket('203.0.113.9', 10, 'peek')).remaining)).toBe(0);
      const decisions = await Promise.all(Array.from({ length: 5 }, () => limiter.take(`key:${prefix}`, 'free', 'take')));
      expect(decisions.every((d) => d.allowed)).toBe(true);

      // The run's sets live in one slot: the MULTI that counts them is accepted.
      const progress = new RunProgress(redis, null as never);
      const run = { runId: 424242, items: new Array(5) } as never;
      for (const n of [0, 1, 2, 3]) await progress.ended(run, n, n === 2);
      expect(await redis.scard('run:{424242}:done')).toBe(4);

      await redis.publish(`${prefix}:credentials:revoked`, 'abc');
      await until(() => subscriber.includes('abc'), 5000, 'the message on the subscriber');
    } finally {
      sub.close();
      redis.disconnect();
    }
  });
});
