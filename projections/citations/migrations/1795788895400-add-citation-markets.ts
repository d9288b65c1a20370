import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Each answer's market (DESIGN §17) on the citation, prompt and change read models (null: asked without one). */
export class AddCitationMarkets1795788895400 implements MigrationInterface {
  name = 'AddCitationMarkets1795788895400';

  async up(q: QueryRunner): Promise<void> {
    for (const table of TABLES) await q.query(`ALTER TABLE ${table} ADD COLUMN country text, ADD COLUMN language text`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of TABLES) await q.query(`ALTER TABLE ${table} DROP COLUMN country, DROP COLUMN language`);
  }
}

const TABLES = ['citation_records', 'prompt_answers', 'change_answer_states', 'answer_changes', 'prompt_discoveries'];
