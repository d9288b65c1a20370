import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Judge calls spend too (issue 32): the spend ledger keeps a row per call of a run's question,
 * `answer` for the question itself and `judge:<cache key>` for each judge call on its answer.
 */
export class AddJudgeSpend1795793109500 implements MigrationInterface {
  name = 'AddJudgeSpend1795793109500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE answer_spend ADD COLUMN call text NOT NULL DEFAULT 'answer'`);
    await q.query(`ALTER TABLE answer_spend DROP CONSTRAINT answer_spend_pkey, ADD PRIMARY KEY (run_id, n, call)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM answer_spend WHERE call <> 'answer'`);
    await q.query(`ALTER TABLE answer_spend DROP CONSTRAINT answer_spend_pkey, ADD PRIMARY KEY (run_id, n)`);
    await q.query(`ALTER TABLE answer_spend DROP COLUMN call`);
  }
}
