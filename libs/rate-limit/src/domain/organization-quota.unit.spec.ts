import { decideQuota, quotaWindows, resolveQuotas, type QuotaLimits } from './organization-quota';

describe('organisation quotas', () => {
  const limits: QuotaLimits = { perDay: 10, perMonth: 100 };
  const now = new Date('2026-11-27T22:30:00.000Z');
  const w = quotaWindows(now);

  it('counts per UTC day and UTC month, and knows when each starts again', () => {
    expect(w).toEqual({ day: '2026-11-27', month: '2026-11-01', dayEndsAt: new Date('2026-11-28T00:00:00.000Z'), monthEndsAt: new Date('2026-12-01T00:00:00.000Z') });
    expect(quotaWindows(new Date('2026-12-31T23:59:59.999Z'))).toMatchObject({ day: '2026-12-31', month: '2026-12-01', monthEndsAt: new Date('2027-01-01T00:00:00.000Z') });
  });

  it('grants a request both windows can take, all or nothing', () => {
    expect(decideQuota('page_audit_pages', limits, { day: 4, month: 50 }, 6, w)).toEqual({ granted: 6, refusal: null });
    expect(decideQuota('page_audit_pages', limits, { day: 4, month: 50 }, 7, w)).toEqual({
      granted: 0,
      refusal: { quota: 'page_audit_pages', period: 'day', max: 10, used: 4, requested: 7, remaining: 6, resetsAt: w.dayEndsAt },
    });
  });

  it('names the month when the month cannot take it (the day starting again would not help)', () => {
    expect(decideQuota('audit_requests', limits, { day: 0, month: 98 }, 3, w).refusal).toMatchObject({ period: 'month', max: 100, used: 98, remaining: 2, resetsAt: w.monthEndsAt });
  });

  it('grants part of a request when asked to (a sitemap), never more than both windows allow, and nothing from an empty window', () => {
    expect(decideQuota('page_audit_pages', limits, { day: 7, month: 50 }, 8, w, true)).toEqual({ granted: 3, refusal: null });
    expect(decideQuota('page_audit_pages', limits, { day: 2, month: 99 }, 8, w, true)).toEqual({ granted: 1, refusal: null });
    expect(decideQuota('page_audit_pages', limits, { day: 10, month: 50 }, 8, w, true).refusal).toMatchObject({ period: 'day', remaining: 0 });
    // Used beyond a limit lowered since: nothing left, never a negative remainder.
    expect(decideQuota('page_audit_pages', { perDay: 5, perMonth: 100 }, { day: 9, month: 9 }, 1, w).refusal).toMatchObject({ remaining: 0 });
  });

  it('merges configured overrides over the defaults per tier and setting', () => {
    const base = { free: { page_audit_pages: { perDay: 100, perMonth: 1000 }, audit_requests: { perDay: 10, perMonth: 100 } } };
    expect(resolveQuotas(base, { free: { pageAuditPagesPerDay: 5, auditRequestsPerMonth: 0 } })).toEqual({
      free: { page_audit_pages: { perDay: 5, perMonth: 1000 }, audit_requests: { perDay: 10, perMonth: 0 } },
    });
    expect(base.free.page_audit_pages.perDay).toBe(100);
  });
});
