import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Daily rollups of analysed answers (DESIGN §14): numerators and denominators per (brand, day,
 * provider, prompt and query, tracked entity), never ratios, so any period or filter re-aggregates exactly.
 * `answer_rollup_sources` keeps each answer's contribution, so a re-analysis replaces it.
 */
export class CreateAnswerRollups1763700007000 implements MigrationInterface {
  name = 'CreateAnswerRollups1763700007000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE answer_daily_rollups (
        organization_id bigint NOT NULL,
        client_id bigint NOT NULL,
        brand_id bigint NOT NULL,
        day date NOT NULL,
        provider text NOT NULL,
        prompt_id bigint NOT NULL,
        query text NOT NULL,
        entity_id text NOT NULL,
        answers integer NOT NULL,
        mentioned integer NOT NULL,
        mentions integer NOT NULL,
        ranked integer NOT NULL,
        rank_sum integer NOT NULL,
        top3 integer NOT NULL,
        positive integer NOT NULL,
        neutral integer NOT NULL,
        negative integer NOT NULL,
        score_sum float8 NOT NULL,
        cited integer NOT NULL,
        with_citations integer NOT NULL,
        citations integer NOT NULL,
        all_citations integer NOT NULL,
        visibility_sum float8 NOT NULL,
        checkable integer NOT NULL,
        accurate integer NOT NULL,
        PRIMARY KEY (brand_id, day, provider, prompt_id, query, entity_id)
      )`);
    await q.query(`CREATE INDEX answer_daily_rollups_tenant_idx ON answer_daily_rollups (organization_id, brand_id, day)`);
    await q.query(`
      CREATE TABLE answer_rollup_sources (
        result_id text PRIMARY KEY,
        contribution jsonb NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE answer_rollup_sources, answer_daily_rollups');
  }
}
