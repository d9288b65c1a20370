import { decide } from './rate-limit-decision';
import { LEASES, RequestLeases, leaseSize } from './request-leases';

const limits = { perMinute: 100_000, perDay: 10_000_000, burst: 0 };
/** The script's reply: allowed; minute: left, next, full; day: left, next, full; granted. */
const reply = (minuteLeft: number, granted: number, allowed = 1) => [allowed, minuteLeft, 0, 1000, 9_000_000, 0, 3_600_000, granted];

describe('request leases', () => {
  it('are one request near a limit, 1 % of what is left otherwise, at most 64', () => {
    expect(leaseSize(0)).toBe(1);
    expect(leaseSize(199)).toBe(1);
    expect(leaseSize(500)).toBe(5);
    expect(leaseSize(1_000_000)).toBe(LEASES.maxSize);
  });

  it('serve the rest of a lease locally, counting remaining down, then ask again', () => {
    const leases = new RequestLeases();
    expect(leases.sizeFor('k')).toBe(1);
    // A call that took 4: the caller's request and 3 more; Redis has 5,000 left after them.
    const first = leases.record('k', decide(reply(5000, 4), limits), limits, 4, 0);
    expect(first.remaining).toBe(5003);
    expect(first.headers['x-ratelimit-remaining']).toBe('5003');
    expect([1, 2, 3].map(() => leases.take('k', limits, 10)?.remaining)).toEqual([5002, 5001, 5000]);
    expect(leases.take('k', limits, 10)).toBeNull();
    expect(leases.sizeFor('k')).toBe(50);
  });

  it('expire, and are not used under other limits', () => {
    const leases = new RequestLeases();
    leases.record('k', decide(reply(50_000, 10), limits), limits, 10, 0);
    expect(leases.take('k', { ...limits }, 1)).toBeNull(); // another tier's limits: ask Redis
    leases.record('k', decide(reply(50_000, 10), limits), limits, 10, 0);
    expect(leases.take('k', limits, LEASES.ttlMs - 1)).not.toBeNull();
    expect(leases.take('k', limits, LEASES.ttlMs)).toBeNull();
  });

  it('keep nothing from a refusal or a single grant', () => {
    const leases = new RequestLeases();
    const refused = leases.record('k', decide(reply(0, 0, 0), limits), limits, 0, 0);
    expect(refused.allowed).toBe(false);
    expect(leases.take('k', limits, 1)).toBeNull();
    expect(leases.sizeFor('k')).toBe(1);
    leases.record('k', decide(reply(100, 1), limits), limits, 1, 0);
    expect(leases.take('k', limits, 1)).toBeNull();
  });
});
