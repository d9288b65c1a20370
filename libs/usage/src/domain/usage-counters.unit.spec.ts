import { UsageCounters, statusClassOf } from './usage-counters';

const key = { organizationId: 1, subject: 'key:7', keyId: 7 };

describe('usage counters', () => {
  it('classifies statuses', () => {
    expect([200, 201, 304, 404, 429, 500].map(statusClassOf)).toEqual(['2xx', '2xx', '3xx', '4xx', '4xx', '5xx']);
  });

  it('aggregates by day, subject, method, route and status class', () => {
    const c = new UsageCounters();
    c.record(key, '2026-01-01', 'GET', '/a', 200, 0.5);
    c.record(key, '2026-01-01', 'GET', '/a', 204, 3);
    c.record(key, '2026-01-01', 'GET', '/a', 404, 3);
    c.record(key, '2026-01-02', 'GET', '/a', 200, 3);
    c.record({ ...key, subject: 'oauth:3', keyId: null }, '2026-01-01', 'GET', '/a', 200, 3);
    expect(c.size).toBe(4);
    const rows = c.drain();
    expect(c.size).toBe(0);
    const ok = rows.find((r) => r.day === '2026-01-01' && r.subject === 'key:7' && r.statusClass === '2xx')!;
    expect(ok).toMatchObject({ requests: 2, errors: 0 });
    expect(ok.latency[0]).toBe(1);
    expect(ok.latency[2]).toBe(1);
    expect(rows.find((r) => r.statusClass === '4xx')).toMatchObject({ requests: 1, errors: 1 });
  });

  it('restores a failed flush without losing what arrived meanwhile', () => {
    const c = new UsageCounters();
    c.record(key, '2026-01-01', 'GET', '/a', 200, 1);
    const failed = c.drain();
    c.record(key, '2026-01-01', 'GET', '/a', 200, 1);
    c.restore(failed);
    const [row] = c.drain();
    expect(row.requests).toBe(2);
    expect(row.latency[0]).toBe(2);
  });
});
