import { Redis } from 'ioredis';
import { register } from 'prom-client';
import { loadConfig, sectionOf } from '@libs/config';
import { testRedisPrefix } from '../../../test/support/test-database';
import { QUEUE_CONFIG } from './queue.config';
import { Queues } from './queues.service';
import { until } from '../../../test/support/until';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const depthOf = async (metric: string, queue?: string) => {
  const values = (await register.getSingleMetric(metric)!.get()).values;
  return values.find((v) => queue === undefined || v.labels.queue === queue)?.value;
};

describe('Queues (BullMQ on libs/queue)', () => {
  const prefix = testRedisPrefix();
  const config = sectionOf(loadConfig({ REDIS_PREFIX: prefix }, [QUEUE_CONFIG]), QUEUE_CONFIG);
  const redis = new Redis('redis://127.0.0.1:6379');
  let queues: Queues;

  beforeEach(() => (queues = new Queues(config)));
  afterEach(() => queues.onApplicationShutdown());
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('reads its prefix from REDIS_PREFIX unless QUEUE_PREFIX is set', () => {
    expect(config).toEqual({ redisUrl: 'redis://127.0.0.1:6379', redisClusterNodes: null, prefix: `${prefix}:bull` });
    expect(sectionOf(loadConfig({ QUEUE_PREFIX: 'q', QUEUE_REDIS_URL: 'redis://10.0.0.1:6380' }, [QUEUE_CONFIG]), QUEUE_CONFIG)).toEqual({ redisUrl: 'redis://10.0.0.1:6380', redisClusterNodes: null, prefix: 'q' });
    expect(sectionOf(loadConfig({ REDIS_CLUSTER_NODES: '10.0.0.1:7000, redis://10.0.0.2:7001' }, [QUEUE_CONFIG]), QUEUE_CONFIG).redisClusterNodes).toEqual(['redis://10.0.0.1:7000', 'redis://10.0.0.2:7001']);
    expect(() => loadConfig({ QUEUE_PREFIX: 'a b', QUEUE_REDIS_URL: 'http://x' }, [QUEUE_CONFIG])).toThrow(/QUEUE_REDIS_URL[\s\S]*QUEUE_PREFIX/);
  });

  it("runs a definition's jobs at its concurrency, under the deployment's prefix, and counts its depth", async () => {
    let running = 0;
    let most = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const done: number[] = [];
    const q = queues.process<{ n: number }, number>(
      { name: '{test-jobs}', concurrency: 3, depthMetric: { name: 'test_jobs_depth', help: 'test' } },
      async ({ n }) => {
        running++;
        most = Math.max(most, running);
        await gate;
        running--;
        done.push(n);
        return n;
      },
    );
    await q.queue.addBulk(Array.from({ length: 10 }, (_, n) => ({ name: 'n', data: { n } })));
    await until(() => running === 3);
    expect(await redis.exists(`${prefix}:bull:{test-jobs}:meta`)).toBe(1);
    expect(await depthOf('queue_depth', '{test-jobs}')).toBe(10);
    expect(await depthOf('test_jobs_depth')).toBe(10);
    release();
    await until(() => done.length === 10);
    expect(most).toBe(3);
  });

  it('rate-limits a queue across its workers', async () => {
    const at: number[] = [];
    const q = queues.process({ name: '{test-limited}', concurrency: 10, limiter: { max: 2, duration: 500 } }, async () => void at.push(Date.now()));
    await q.queue.addBulk(Array.from({ length: 6 }, () => ({ name: 'x', data: {} })));
    await until(() => at.length === 6);
    // 2 jobs per 500 ms: the sixth starts at least a second after the first.
    expect(at[5] - at[0]).toBeGreaterThanOrEqual(900);
  });

  it('applies default job options and stalled-job settings', async () => {
    let calls = 0;
    const q = queues.process(
      { name: '{test-retry}', concurrency: 1, lockDuration: 5_000, maxStalledCount: 2, defaultJobOptions: { attempts: 3, backoff: { type: 'fixed', delay: 10 } } },
      async () => {
        if (++calls < 3) throw new Error('not yet');
        return 'ok';
      },
    );
    expect(q.worker.opts).toMatchObject({ concurrency: 1, lockDuration: 5_000, maxStalledCount: 2, prefix: `${prefix}:bull` });
    const job = await q.queue.add('x', {});
    await until(async () => (await q.queue.getJobState(job.id!)) === 'completed');
    expect(calls).toBe(3);
  });

  it('lets in-flight jobs finish at shutdown, then closes queue and connections', async () => {
    let finished = false;
    const q = queues.process({ name: '{test-close}', concurrency: 1 }, async () => {
      await wait(300);
      finished = true;
    });
    await q.queue.add('x', {});
    await until(async () => (await q.queue.getActiveCount()) === 1);
    await queues.onApplicationShutdown();
    expect(finished).toBe(true);
    expect(q.worker.closing).toBeDefined();
    await until(() => q.connection.status === 'end', 2000);
    expect(await depthOf('queue_depth', '{test-close}')).toBeUndefined();
  });
});
