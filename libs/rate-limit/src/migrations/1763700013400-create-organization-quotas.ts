import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What each organisation has used of its quotas (libs/rate-limit, "organization-quotas"): one row
 * per organisation, quota, period (UTC day or UTC month) and the period's first day. Every API and
 * worker process reserves against these rows (row locks), so a quota holds across processes.
 */
export class CreateOrganizationQuotas1763700013400 implements MigrationInterface {
  name = 'CreateOrganizationQuotas1763700013400';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE organization_quota_usage (
        organization_id bigint NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        quota text NOT NULL,
        period text NOT NULL CHECK (period IN ('day', 'month')),
        period_start date NOT NULL,
        used bigint NOT NULL DEFAULT 0 CHECK (used >= 0),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, quota, period, period_start)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE organization_quota_usage');
  }
}
