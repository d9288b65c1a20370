import type { MigrationInterface, QueryRunner } from 'typeorm';

/** An organisation's own detector thresholds (issue 19: "thresholds per organisation"), only the settings it changed. */
export class CreateDetectorThresholds1763700012000 implements MigrationInterface {
  name = 'CreateDetectorThresholds1763700012000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE detector_thresholds (
        organization_id bigint PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
        settings jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE detector_thresholds');
  }
}
