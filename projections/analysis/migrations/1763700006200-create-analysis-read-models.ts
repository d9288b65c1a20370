import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Read models of analysis runs and answers (DESIGN §13.1): runs, results, answer entities, answer citations. */
export class CreateAnalysisReadModels1763700006200 implements MigrationInterface {
  name = 'CreateAnalysisReadModels1763700006200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE analysis_runs (
        id bigint PRIMARY KEY,
        organization_id bigint NOT NULL,
        client_id bigint,
        brand_id bigint NOT NULL,
        trigger text NOT NULL,
        status text NOT NULL,
        queries jsonb NOT NULL,
        providers text[] NOT NULL,
        answers_expected integer NOT NULL,
        answers_recorded integer NOT NULL DEFAULT 0,
        answers_failed integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        started_at timestamptz,
        completed_at timestamptz
      )`);
    await q.query(`CREATE INDEX analysis_runs_tenant_idx ON analysis_runs (organization_id, brand_id, id DESC)`);
    await q.query(`
      CREATE TABLE analysis_results (
        id text PRIMARY KEY,
        run_id bigint NOT NULL,
        n integer NOT NULL,
        organization_id bigint NOT NULL,
        client_id bigint,
        brand_id bigint NOT NULL,
        prompt_id bigint,
        query text NOT NULL,
        provider text NOT NULL,
        model text,
        source text,
        status text NOT NULL,
        answer text,
        error text,
        asked_at timestamptz NOT NULL,
        latency_ms integer,
        engine_version text,
        analysed_at timestamptz,
        citations jsonb NOT NULL DEFAULT '[]',
        entities jsonb NOT NULL DEFAULT '[]',
        claims jsonb NOT NULL DEFAULT '[]'
      )`);
    await q.query(`CREATE INDEX analysis_results_run_idx ON analysis_results (run_id, n)`);
    await q.query(`CREATE INDEX analysis_results_tenant_idx ON analysis_results (organization_id, brand_id, asked_at DESC)`);
    await q.query(`
      CREATE TABLE answer_entities (
        result_id text NOT NULL,
        entity_id text NOT NULL,
        organization_id bigint NOT NULL,
        client_id bigint,
        brand_id bigint NOT NULL,
        run_id bigint NOT NULL,
        provider text NOT NULL,
        asked_at timestamptz NOT NULL,
        kind text NOT NULL,
        name text NOT NULL,
        mentioned boolean NOT NULL,
        mentions integer NOT NULL,
        rank integer,
        sentiment text,
        sentiment_score float8,
        visibility_share float8 NOT NULL,
        PRIMARY KEY (result_id, entity_id)
      )`);
    await q.query(`CREATE INDEX answer_entities_tenant_idx ON answer_entities (organization_id, brand_id, asked_at)`);
    await q.query(`
      CREATE TABLE answer_citations (
        result_id text NOT NULL,
        position integer NOT NULL,
        organization_id bigint NOT NULL,
        client_id bigint,
        brand_id bigint NOT NULL,
        run_id bigint NOT NULL,
        provider text NOT NULL,
        asked_at timestamptz NOT NULL,
        url text NOT NULL,
        domain text NOT NULL,
        title text,
        owner text NOT NULL,
        entity_id text,
        PRIMARY KEY (result_id, position)
      )`);
    await q.query(`CREATE INDEX answer_citations_tenant_idx ON answer_citations (organization_id, brand_id, asked_at)`);
    await q.query(`CREATE INDEX answer_citations_domain_idx ON answer_citations (organization_id, domain)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE answer_citations, answer_entities, analysis_results, analysis_runs');
  }
}
