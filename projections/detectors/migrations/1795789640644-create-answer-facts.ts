import type { MigrationInterface, QueryRunner } from 'typeorm';

/** `answer_facts` (issue 34, part 4): the detectors' narrow per-answer, per-entity facts; filled from zero by its projector. */
export class CreateAnswerFacts1795789640644 implements MigrationInterface {
  name = 'CreateAnswerFacts1795789640644';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE answer_facts (
        result_id text NOT NULL,
        organization_id bigint NOT NULL,
        client_id bigint,
        brand_id bigint NOT NULL,
        run_id bigint NOT NULL,
        provider text NOT NULL,
        asked_at timestamptz NOT NULL,
        prompt_id bigint,
        query text NOT NULL,
        entity_id text NOT NULL,
        position integer NOT NULL,
        kind text NOT NULL,
        name text NOT NULL,
        mentioned boolean NOT NULL,
        mentions integer NOT NULL,
        rank integer,
        sentiment text,
        cited boolean NOT NULL,
        total_mentions integer,
        with_citations boolean,
        competitor_domains text[],
        contradictions jsonb,
        PRIMARY KEY (result_id, entity_id)
      )`);
    // A brand's pass: its own rows in time order (the series are cut from them), then the answers' other rows by result_id (the key).
    await q.query(`CREATE INDEX answer_facts_brand_idx ON answer_facts (brand_id, entity_id, asked_at) INCLUDE (organization_id)`);
    await q.query(`CREATE INDEX answer_facts_tenant_idx ON answer_facts (organization_id, client_id, brand_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE answer_facts');
  }
}
