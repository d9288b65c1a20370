import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisSubscriber } from './redis-subscriber';
import { until } from '../../../test/support/until';

const URL = 'redis://127.0.0.1:6379';

describe('RedisSubscriber', () => {
  const tag = `aov_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const publisher = new Redis(URL);
  afterAll(() => publisher.quit());

  it('hands each message to its channel handler, survives a throwing handler, resubscribes after a reconnect', async () => {
    const a: string[] = [];
    const b: string[] = [];
    let ready = 0;
    const subscriber = await RedisSubscriber.open(URL, {
      name: tag,
      channels: {
        [`${tag}:a`]: (m) => {
          if (m === 'boom') throw new Error('bad message');
          a.push(m);
        },
        [`${tag}:b`]: (m) => b.push(m),
      },
      onReady: () => ready++,
    });
    try {
      expect(ready).toBe(1);
      await publisher.publish(`${tag}:a`, 'boom');
      await publisher.publish(`${tag}:a`, 'one');
      await publisher.publish(`${tag}:b`, 'two');
      await publisher.publish(`${tag}:c`, 'nobody');
      await until(() => a.length === 1 && b.length === 1);
      expect([a, b]).toEqual([['one'], ['two']]);

      // The server drops the connection: it comes back, says so, and listens again.
      const id = String(await publisher.client('LIST')).split('\n').find((l: string) => l.includes(`name=${tag}`))!.match(/id=(\d+)/)![1];
      await publisher.client('KILL', 'ID', id);
      await until(() => ready === 2);
      await until(() => subscriber.status === 'ready');
      const deadline = Date.now() + 5000;
      while (!b.includes('again') && Date.now() < deadline) {
        await publisher.publish(`${tag}:b`, 'again');
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(b).toContain('again');
    } finally {
      subscriber.close();
    }
    await until(() => subscriber.status === 'end');
  });

});
