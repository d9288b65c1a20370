import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outcomes finalised by the detectors' loop carry the brand's mention rate before and after
 * (issue 19). Existing rows keep null: their outcomes did not measure it.
 */
export class AddOutcomeMentionRates1763700012100 implements MigrationInterface {
  name = 'AddOutcomeMentionRates1763700012100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE opportunity_outcomes ADD COLUMN mention_rate_before double precision, ADD COLUMN mention_rate_after double precision`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE opportunity_outcomes DROP COLUMN mention_rate_before, DROP COLUMN mention_rate_after`);
  }
}
