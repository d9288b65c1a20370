import { decide } from './rate-limit-decision';
import { LEASES, RequestLeases } from './request-leases';

const limits = { perMinute: 100_000, perDay: 10_000_000, burst: 0 };
/** The script's reply: allowed; minute: left, next, full; day: left, next, full; granted. */
const reply = (minuteLeft: number, granted: number, allowed = 1) => [allowed, minuteLeft, 0, 1000, 9_000_000, 0, 3_600_000, granted];

describe('request leases', () => {
  it('are sized on the subject\'s recent demand in this process: one for an occasional client, at most 64', () => {
    const leases = new RequestLeases();
    expect(leases.sizeFor('k')).toBe(1);
    leases.saw('k', 0);
    expect(leases.sizeFor('k')).toBe(1);
    for (let i = 1; i < 10; i++) leases.saw('k', i);
    expect(leases.sizeFor('k')).toBe(10);
    leases.saw('k', LEASES.ttlMs + 5); // a new window remembers the last one
    expect(leases.sizeFor('k')).toBe(10);
    leases.saw('k', 5 * LEASES.ttlMs); // after a quiet spell, demand starts again from one
    expect(leases.sizeFor('k')).toBe(1);
    for (let i = 0; i < 500; i++) leases.saw('busy', i);
    expect(leases.sizeFor('busy')).toBe(LEASES.maxSize);
  });

  it('serve the rest of a lease locally, counting remaining down, then ask again', () => {
    const leases = new RequestLeases();
    // A call that took 4: the caller's request and 3 more; Redis has 5,000 left after them.
    const first = leases.record('k', decide(reply(5000, 4), limits), limits, 4, 0);
    expect(first.remaining).toBe(5003);
    expect(first.headers['x-ratelimit-remaining']).toBe('5003');
    expect([1, 2, 3].map(() => leases.take('k', limits, 10)?.remaining)).toEqual([5002, 5001, 5000]);
    expect(leases.take('k', limits, 10)).toBeNull();
  });

  it('expire (at the latest at the given end, e.g. midnight), and are not used under other limits', () => {
    const leases = new RequestLeases();
    leases.record('k', decide(reply(50_000, 10), limits), limits, 10, 0);
    expect(leases.take('k', { ...limits }, 1)).toBeNull(); // another tier's limits: ask Redis
    leases.record('k', decide(reply(50_000, 10), limits), limits, 10, 0);
    expect(leases.take('k', limits, LEASES.ttlMs - 1)).not.toBeNull();
    expect(leases.take('k', limits, LEASES.ttlMs)).toBeNull();
    leases.record('k', decide(reply(50_000, 10), limits), limits, 10, 0, 100);
    expect(leases.take('k', limits, 100)).toBeNull();
  });

  it('keep what is held when a new call lands, and serve it even if Redis now refuses', () => {
    const leases = new RequestLeases();
    leases.record('k', decide(reply(500, 3), limits), limits, 3, 0); // holds 2
    const next = leases.record('k', decide(reply(490, 2), limits), limits, 2, 1); // holds 2 + 1
    expect(next.remaining).toBe(493);
    const refused = leases.record('k', decide(reply(0, 0, 0), limits), limits, 0, 2);
    expect(refused.allowed).toBe(true); // one of the 3 held
    expect(leases.take('k', limits, 3)?.allowed).toBe(true);
    expect(leases.take('k', limits, 3)?.allowed).toBe(true);
    expect(leases.take('k', limits, 3)).toBeNull();
    expect(leases.record('k', decide(reply(0, 0, 0), limits), limits, 0, 4).allowed).toBe(false);
  });
});
