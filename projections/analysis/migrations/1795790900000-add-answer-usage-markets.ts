import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Each live answer's tokens carry its market too (DESIGN §17), like the other per-answer rows: cost can be read per market. */
export class AddAnswerUsageMarkets1795790900000 implements MigrationInterface {
  name = 'AddAnswerUsageMarkets1795790900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE answer_usage ADD COLUMN country text, ADD COLUMN language text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE answer_usage DROP COLUMN country, DROP COLUMN language`);
  }
}
