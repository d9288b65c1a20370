import { Redis } from 'ioredis';
import { testRedisPrefix } from '../../../../test/support/test-database';
import { HostPacer } from './host-pacer';

describe('HostPacer (Redis)', () => {
  const prefix = testRedisPrefix();
  const redis = new Redis('redis://127.0.0.1:6379', { keyPrefix: `${prefix}:` });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await new Redis('redis://127.0.0.1:6379').del(...keys).catch(() => undefined);
    await redis.quit();
  });

  it('spaces the turns of one host across pacers (as across worker processes), and leaves other hosts alone', async () => {
    const pacers = [new HostPacer(redis), new HostPacer(new Redis('redis://127.0.0.1:6379', { keyPrefix: `${prefix}:` }))];
    const started = Date.now();
    const at: number[] = [];
    await Promise.all(Array.from({ length: 6 }, (_, k) => pacers[k % 2].turn('site.test:8080', 200).then(() => at.push(Date.now() - started))));
    at.sort((a, b) => a - b);
    // Six turns 200 ms apart: the last a second after the first reservation (timers may fire a few ms late, never early).
    expect(at[5]).toBeGreaterThanOrEqual(980);
    for (let k = 1; k < at.length; k++) expect(at[k] - at[k - 1]).toBeGreaterThanOrEqual(150);
    const other = Date.now();
    await pacers[0].turn('elsewhere.test', 200);
    expect(Date.now() - other).toBeLessThan(100);
    await (pacers[1] as unknown as { redis: Redis }).redis.quit();
  });
});
