import type { MigrationInterface, QueryRunner } from 'typeorm';

/** `answer_facts` rows are per-answer rows (AnswerRowBase) and carry the answer's market like the others (issue 32 part 3, merged after issue 34 created the table). */
export class AddAnswerFactsMarkets1795793109700 implements MigrationInterface {
  name = 'AddAnswerFactsMarkets1795793109700';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE answer_facts ADD COLUMN country text, ADD COLUMN language text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE answer_facts DROP COLUMN country, DROP COLUMN language`);
  }
}
