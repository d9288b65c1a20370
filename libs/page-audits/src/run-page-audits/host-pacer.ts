import type { Redis } from 'ioredis';

/**
 * Reserves the next free moment for a request to one host and answers how long to wait for it.
 * The host's next free moment lives in Redis (Redis's clock), so the pace holds across every
 * worker process: at most one request per interval per host.
 */
const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local free = tonumber(redis.call('GET', KEYS[1]) or '0')
local at = math.max(now, free)
local interval = tonumber(ARGV[1])
redis.call('SET', KEYS[1], at + interval, 'PX', at + interval - now + 1000)
return at - now
`;

export class HostPacer {
  constructor(private readonly redis: Redis) {}

  /** Waits for this request's turn at `host` (requests spaced `intervalMs` apart). Returns the wait in ms. */
  async turn(host: string, intervalMs: number): Promise<number> {
    const wait = Number(await this.redis.eval(RESERVE, 1, `page-audits:host:${host.toLowerCase()}`, Math.max(1, Math.round(intervalMs))));
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    return wait;
  }
}
