import { decide, msUntilUtcMidnight, policyHeader, resolveLimits, utcDay } from './rate-limit-decision';

const free = { perMinute: 60, perDay: 1000, burst: 10 };

describe('rate-limit decision', () => {
  it('merges configured overrides over the tier table', () => {
    const limits = resolveLimits({ free, standard: { perMinute: 300, perDay: 10_000, burst: 50 } }, { free: { perDay: 5 } });
    expect(limits.free).toEqual({ perMinute: 60, perDay: 5, burst: 10 });
    expect(limits.standard.perDay).toBe(10_000);
  });

  it('reports the minute bucket when it is the tighter limit', () => {
    // allowed; minute: 69 left, next now, full in 1 s; day: 999 left, full in 5 h
    const d = decide([1, 69, 0, 1000, 999, 0, 18_000_000], free);
    expect(d).toMatchObject({ allowed: true, binding: 'minute', remaining: 69, resetSeconds: 1, retryAfterSeconds: null });
    expect(d.headers).toEqual({
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '69',
      'x-ratelimit-reset': '1',
      'ratelimit-policy': '"minute";q=70;w=60, "day";q=1000;w=86400',
      ratelimit: '"minute";r=69;t=1',
    });
  });

  it('reports the day when fewer requests are left in it', () => {
    const d = decide([1, 69, 0, 1000, 3, 0, 7_200_500], free);
    expect(d).toMatchObject({ binding: 'day', remaining: 3, resetSeconds: 7201 });
    expect(d.headers.ratelimit).toBe('"day";r=3;t=7201');
  });

  it('refuses with Retry-After rounded up to whole seconds, at least 1', () => {
    const minute = decide([0, 0, 400, 70_000, 900, 0, 1000], free);
    expect(minute).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    expect(minute.headers['retry-after']).toBe('1');
    expect(decide([0, 0, 2_100, 70_000, 900, 0, 1000], free).retryAfterSeconds).toBe(3);
    const day = decide([0, 40, 0, 30_000, 0, 3_600_000, 3_600_000], free);
    expect(day).toMatchObject({ allowed: false, binding: 'day', retryAfterSeconds: 3600, resetSeconds: 3600 });
  });

  it('formats the policy once per limits object', () => {
    expect(policyHeader(free)).toBe(policyHeader(free));
  });

  it('knows the UTC day and the time to its end', () => {
    const t = Date.UTC(2026, 0, 31, 23, 59, 59, 500);
    expect(utcDay(t)).toBe('2026-01-31');
    expect(msUntilUtcMidnight(t)).toBe(500);
    expect(msUntilUtcMidnight(Date.UTC(2026, 1, 1))).toBe(86_400_000);
  });
});
