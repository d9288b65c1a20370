import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The page audits the page detectors (readiness_gap, schema_gap) have judged: a completed audit
 * without a row here is judged by the next sweep, and gets its row only after its brand's pass
 * (at least once; the detectors' fingerprints make a second pass open nothing).
 */
export class CreatePageGapChecks1763700012200 implements MigrationInterface {
  name = 'CreatePageGapChecks1763700012200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE page_gap_checks (
        audit_id bigint PRIMARY KEY REFERENCES page_audits (id) ON DELETE CASCADE,
        organization_id bigint NOT NULL,
        brand_id bigint NOT NULL,
        checked_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX page_audits_completed_idx ON page_audits (completed_at) WHERE status = 'completed'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX page_audits_completed_idx');
    await q.query('DROP TABLE page_gap_checks');
  }
}
