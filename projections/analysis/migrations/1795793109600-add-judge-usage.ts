import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Judge calls' tokens sit beside the answers' (issue 32): `call` is `answer`, or `judge:<cache key>` for a judge call on that answer. */
export class AddJudgeUsage1795793109600 implements MigrationInterface {
  name = 'AddJudgeUsage1795793109600';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE answer_usage ADD COLUMN call text NOT NULL DEFAULT 'answer'`);
    await q.query(`ALTER TABLE answer_usage DROP CONSTRAINT answer_usage_pkey, ADD PRIMARY KEY (result_id, call)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM answer_usage WHERE call <> 'answer'`);
    await q.query(`ALTER TABLE answer_usage DROP CONSTRAINT answer_usage_pkey, ADD PRIMARY KEY (result_id)`);
    await q.query(`ALTER TABLE answer_usage DROP COLUMN call`);
  }
}
