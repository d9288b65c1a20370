import { loadConfig, sectionOf } from '@libs/config';
import { createDataSource } from '@libs/database';
import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { OrganizationQuotas, quotaExceeded } from './organization-quotas';
import { RATE_LIMIT_CONFIG } from './rate-limit.config';

/** Organisation quotas against PostgreSQL: two "processes" (two pools, two services) share one count. */
let db: TestDatabase;
let one: DataSource;
let two: DataSource;
let a: OrganizationQuotas;
let b: OrganizationQuotas;

beforeAll(async () => {
  db = await createTestDatabase();
  one = await createDataSource(db.url, 10).initialize();
  two = await createDataSource(db.url, 10).initialize();
  const config = loadConfig({ ...process.env, DATABASE_URL: db.url, QUOTA_TIERS: JSON.stringify({ free: { pageAuditPagesPerDay: 20, pageAuditPagesPerMonth: 30, auditRequestsPerDay: 3 } }) }, [RATE_LIMIT_CONFIG]);
  a = new OrganizationQuotas(one, sectionOf(config, RATE_LIMIT_CONFIG));
  b = new OrganizationQuotas(two, sectionOf(config, RATE_LIMIT_CONFIG));
});
afterAll(async () => {
  await one?.destroy();
  await two?.destroy();
  await db?.drop();
});

const org = async (tier: 'free' | 'enterprise' = 'free'): Promise<number> => Number((await one.query(`INSERT INTO organizations (name, tier) VALUES ('Quota test', $1) RETURNING id`, [tier]))[0].id);

describe('OrganizationQuotas', () => {
  it('never grants more than the quota to concurrent requests from two processes', async () => {
    const id = await org();
    const grants = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).reserve(id, 'audit_requests', 1)));
    expect(grants.filter((g) => g.granted === 1)).toHaveLength(3);
    expect(grants.filter((g) => g.refusal)).toHaveLength(37);
    const pages = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).reserve(id, 'page_audit_pages', 3)));
    // 20 a day: six requests of 3 (18), the rest refused whole (2 left is less than 3).
    expect(pages.filter((g) => g.granted === 3)).toHaveLength(6);
    expect(pages.filter((g) => g.refusal).map((g) => g.refusal!.remaining)).toEqual(Array(6).fill(2));
  });

  it('grants part when asked, gives a reservation back, and binds by the month when the month is shorter', async () => {
    const id = await org();
    expect((await a.reserve(id, 'page_audit_pages', 25, { partial: true })).granted).toBe(20);
    const refused = await b.reserve(id, 'page_audit_pages', 1);
    expect(refused.refusal).toMatchObject({ period: 'day', max: 20, used: 20, remaining: 0 });
    const now = new Date();
    const tomorrow = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 12));
    // Tomorrow, if still this month: 10 left of the month's 30, so a request of 15 is refused by the month.
    if (tomorrow.getUTCMonth() === now.getUTCMonth()) {
      expect((await a.reserve(id, 'page_audit_pages', 15, { now: tomorrow })).refusal).toMatchObject({ period: 'month', max: 30, used: 20, remaining: 10 });
    }
    const taken = await a.reserveOrRefuse(id, 'audit_requests', 2);
    await a.refund(taken);
    await a.refund(taken); // never below zero
    expect((await b.reserve(id, 'audit_requests', 3)).granted).toBe(3);
  });

  it('reserves inside the caller’s transaction: rolled back with its work', async () => {
    const id = await org();
    await expect(
      one.transaction(async (m) => {
        expect((await a.reserve(id, 'audit_requests', 3, { within: m })).granted).toBe(3);
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    expect((await b.reserve(id, 'audit_requests', 3)).granted).toBe(3);
  });

  it('reads the organisation’s tier, and says 429 with Retry-After until the window starts again', async () => {
    const big = await org('enterprise');
    expect((await a.reserve(big, 'page_audit_pages', 1000)).granted).toBe(1000);
    const id = await org();
    await a.reserve(id, 'audit_requests', 3);
    await expect(a.assertRoom(id, 'audit_requests')).rejects.toMatchObject({ status: 429 });
    const refusal = (await a.reserve(id, 'audit_requests', 1)).refusal!;
    const at = new Date(refusal.resetsAt.getTime() - 90_500);
    const error = quotaExceeded(refusal, at);
    expect(error.getStatus()).toBe(429);
    expect(error.headers).toEqual({ 'Retry-After': '91' });
    expect(error.body()).toEqual({
      error: { code: 'RATE_LIMITED', message: expect.stringMatching(/daily quota of audit requests is used up/), details: { quota: 'audit_requests', period: 'day', max: 3, used: 3, requested: 1, remaining: 0, resetsAt: refusal.resetsAt.toISOString() } },
    });
  });
});
