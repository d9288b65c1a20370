import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Read models of citations, prompts and changes (issue 16, DESIGN §14): one row per cited URL of an
 * analysed answer, the cited URLs' ids, one row per analysed answer seen from its brand, the
 * changes between consecutive answers (with the answers' snapshots they compare), and the
 * questions found in answers. Each table serves its reads by index: tenant and brand first, then
 * the filter (domain, URL, owner, provider, prompt, change type), then the day.
 */
export class CreateCitationReadModels1763700008000 implements MigrationInterface {
  name = 'CreateCitationReadModels1763700008000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE citation_records (
        result_id text NOT NULL,
        position integer NOT NULL,
        organization_id bigint NOT NULL,
        client_id bigint,
        brand_id bigint NOT NULL,
        run_id bigint NOT NULL,
        provider text NOT NULL,
        asked_at timestamptz NOT NULL,
        day date NOT NULL,
        prompt_id bigint,
        query text NOT NULL,
        url text NOT NULL,
        domain text NOT NULL,
        title text,
        owner text NOT NULL,
        entity_id text,
        brand_mentioned boolean NOT NULL,
        competitors_mentioned text[] NOT NULL,
        PRIMARY KEY (result_id, position)
      )`);
    await q.query(`CREATE INDEX citation_records_brand_day_idx ON citation_records (organization_id, brand_id, day)`);
    await q.query(`CREATE INDEX citation_records_domain_idx ON citation_records (brand_id, domain, day)`);
    await q.query(`CREATE INDEX citation_records_url_idx ON citation_records (brand_id, url, day)`);
    await q.query(`CREATE INDEX citation_records_owner_idx ON citation_records (brand_id, owner, day)`);
    await q.query(`CREATE INDEX citation_records_provider_idx ON citation_records (brand_id, provider, day)`);

    await q.query(`
      CREATE TABLE citation_sources (
        id bigint PRIMARY KEY,
        organization_id bigint NOT NULL,
        client_id bigint,
        brand_id bigint NOT NULL,
        url text NOT NULL,
        domain text NOT NULL,
        title text,
        UNIQUE (brand_id, url)
      )`);
    await q.query(`CREATE INDEX citation_sources_tenant_idx ON citation_sources (organization_id, brand_id)`);

    await q.query(`
      CREATE TABLE prompt_answers (
        result_id text PRIMARY KEY,
        organization_id bigint NOT NULL,
        client_id bigint,
        brand_id bigint NOT NULL,
        run_id bigint NOT NULL,
        provider text NOT NULL,
        asked_at timestamptz NOT NULL,
        day date NOT NULL,
        prompt_id bigint,
        query text NOT NULL,
        brand_mentioned boolean NOT NULL,
        brand_rank integer,
        brand_sentiment text,
        brand_sentiment_score float8,
        competitors_mentioned text[] NOT NULL,
        cited_domains text[] NOT NULL,
        brand_cited boolean NOT NULL,
        citations integer NOT NULL
      )`);
    await q.query(`CREATE INDEX prompt_answers_brand_day_idx ON prompt_answers (organization_id, brand_id, day)`);
    await q.query(`CREATE INDEX prompt_answers_query_idx ON prompt_answers (brand_id, query, day)`);
    await q.query(`CREATE INDEX prompt_answers_provider_idx ON prompt_answers (brand_id, provider, day)`);

    await q.query(`
      CREATE TABLE change_answer_states (
        result_id text PRIMARY KEY,
        organization_id bigint NOT NULL,
        client_id bigint,
        brand_id bigint NOT NULL,
        provider text NOT NULL,
        prompt_id bigint,
        query text NOT NULL,
        asked_at timestamptz NOT NULL,
        snapshot jsonb NOT NULL
      )`);
    await q.query(`CREATE INDEX change_answer_states_series_idx ON change_answer_states (brand_id, query, provider, asked_at, result_id)`);
    await q.query(`
      CREATE TABLE answer_changes (
        id text PRIMARY KEY,
        organization_id bigint NOT NULL,
        client_id bigint,
        brand_id bigint NOT NULL,
        result_id text NOT NULL,
        previous_result_id text NOT NULL,
        provider text NOT NULL,
        prompt_id bigint,
        query text NOT NULL,
        change_type text NOT NULL,
        severity text NOT NULL,
        severity_rank smallint NOT NULL,
        entity_id text NOT NULL,
        entity_name text NOT NULL,
        entity_kind text NOT NULL,
        domain text,
        before jsonb NOT NULL,
        after jsonb NOT NULL,
        asked_at timestamptz NOT NULL,
        previous_asked_at timestamptz NOT NULL,
        day date NOT NULL
      )`);
    await q.query(`CREATE INDEX answer_changes_result_idx ON answer_changes (result_id)`);
    await q.query(`CREATE INDEX answer_changes_brand_day_idx ON answer_changes (organization_id, brand_id, day, asked_at, id)`);
    await q.query(`CREATE INDEX answer_changes_type_idx ON answer_changes (brand_id, change_type, day)`);
    await q.query(`CREATE INDEX answer_changes_severity_idx ON answer_changes (brand_id, severity_rank, day)`);
    await q.query(`CREATE INDEX answer_changes_provider_idx ON answer_changes (brand_id, provider, day)`);

    await q.query(`
      CREATE TABLE prompt_discoveries (
        result_id text NOT NULL,
        question_key text NOT NULL,
        origin text NOT NULL,
        organization_id bigint NOT NULL,
        client_id bigint,
        brand_id bigint NOT NULL,
        provider text NOT NULL,
        prompt_id bigint,
        query text NOT NULL,
        question text NOT NULL,
        asked_at timestamptz NOT NULL,
        day date NOT NULL,
        PRIMARY KEY (result_id, question_key, origin)
      )`);
    await q.query(`CREATE INDEX prompt_discoveries_brand_day_idx ON prompt_discoveries (organization_id, brand_id, day)`);
    await q.query(`CREATE INDEX prompt_discoveries_key_idx ON prompt_discoveries (brand_id, question_key, day)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE prompt_discoveries, answer_changes, change_answer_states, prompt_answers, citation_sources, citation_records');
  }
}
