import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who decided the sentiment labels the rollups count (issue 32): `judged`, labelled answers whose
 * label came from the sentiment judge (the rest, the offline model's), and `judge_fallbacks`,
 * labelled answers whose judge call failed, refused or answered out of format (the offline label stood).
 */
export class AddRollupLabellers1795788745766 implements MigrationInterface {
  name = 'AddRollupLabellers1795788745766';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE answer_daily_rollups ADD COLUMN judged integer NOT NULL DEFAULT 0, ADD COLUMN judge_fallbacks integer NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE answer_daily_rollups DROP COLUMN judged, DROP COLUMN judge_fallbacks');
  }
}
