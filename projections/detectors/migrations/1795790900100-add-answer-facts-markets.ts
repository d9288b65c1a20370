import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The answer facts carry each answer's market too (DESIGN §17), like every per-answer row (null: asked without one). */
export class AddAnswerFactsMarkets1795790900100 implements MigrationInterface {
  name = 'AddAnswerFactsMarkets1795790900100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE answer_facts ADD COLUMN country text, ADD COLUMN language text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE answer_facts DROP COLUMN country, DROP COLUMN language`);
  }
}
