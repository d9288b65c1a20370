import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Issue 32 part 2: why a run ended (`budget_exhausted`), and the tokens of each live answer, which run and daily costs are computed from when read. */
export class AddAnswerUsage1795788897200 implements MigrationInterface {
  name = 'AddAnswerUsage1795788897200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE analysis_runs ADD COLUMN reason text, ADD COLUMN answers_not_asked integer NOT NULL DEFAULT 0`);
    await q.query(`
      CREATE TABLE answer_usage (
        result_id text PRIMARY KEY,
        run_id bigint NOT NULL,
        organization_id bigint NOT NULL,
        client_id bigint,
        brand_id bigint NOT NULL,
        provider text NOT NULL,
        model text NOT NULL,
        asked_at timestamptz NOT NULL,
        input_tokens integer NOT NULL,
        cached_input_tokens integer NOT NULL,
        output_tokens integer NOT NULL
      )`);
    await q.query(`CREATE INDEX answer_usage_run_idx ON answer_usage (run_id)`);
    await q.query(`CREATE INDEX answer_usage_day_idx ON answer_usage (organization_id, asked_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE answer_usage');
    await q.query('ALTER TABLE analysis_runs DROP COLUMN reason, DROP COLUMN answers_not_asked');
  }
}
