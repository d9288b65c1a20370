import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Budgets per organisation (issue 32 part 2) and the spend ledger the workers check them against:
 * one row per question of a run (its place n), reserved at the estimate before it is asked, settled
 * at the reply's cost, or marked not asked when a budget would have been exceeded. Keyed by the
 * question, so a retried job finds its own row and neither checks nor spends twice.
 */
export class CreateBudgets1795788897100 implements MigrationInterface {
  name = 'CreateBudgets1795788897100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE organization_budgets (
        organization_id bigint PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
        monthly_usd numeric(14, 6) CHECK (monthly_usd >= 0),
        per_run_usd numeric(14, 6) CHECK (per_run_usd >= 0),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE answer_spend (
        run_id bigint NOT NULL,
        n integer NOT NULL,
        organization_id bigint NOT NULL,
        provider text NOT NULL,
        month date NOT NULL,
        state text NOT NULL CHECK (state IN ('reserved', 'settled', 'not_asked')),
        estimate_usd numeric(14, 6) NOT NULL,
        -- not_asked: which budget would have been exceeded, its limit, and what was committed before this question
        stopped_by text CHECK (stopped_by IN ('run', 'month')),
        limit_usd numeric(14, 6),
        committed_usd numeric(14, 6),
        usd numeric(14, 6),
        model text,
        input_tokens bigint,
        cached_input_tokens bigint,
        output_tokens bigint,
        reserved_at timestamptz NOT NULL DEFAULT now(),
        settled_at timestamptz,
        PRIMARY KEY (run_id, n)
      )`);
    await q.query(`CREATE INDEX answer_spend_month_idx ON answer_spend (organization_id, month)`);
    await q.query(`CREATE INDEX answer_spend_settled_idx ON answer_spend (organization_id, provider, settled_at DESC) WHERE state = 'settled'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE answer_spend');
    await q.query('DROP TABLE organization_budgets');
  }
}
