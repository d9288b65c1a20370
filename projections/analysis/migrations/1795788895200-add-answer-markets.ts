import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Each answer's market (DESIGN §17): country and language on the results and the per-answer rows (null: asked without one). */
export class AddAnswerMarkets1795788895200 implements MigrationInterface {
  name = 'AddAnswerMarkets1795788895200';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['analysis_results', 'answer_entities', 'answer_citations']) {
      await q.query(`ALTER TABLE ${table} ADD COLUMN country text, ADD COLUMN language text`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['analysis_results', 'answer_entities', 'answer_citations']) {
      await q.query(`ALTER TABLE ${table} DROP COLUMN country, DROP COLUMN language`);
    }
  }
}
