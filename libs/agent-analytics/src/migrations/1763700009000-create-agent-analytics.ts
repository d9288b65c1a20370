import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Agent analytics (DESIGN §13.2): `bot_visits` partitioned by UTC day (partitions are made as
 * days arrive and dropped whole by retention), the daily rollups every read uses, AI referrals
 * (daily counts only: no raw rows of human visits), idempotent ingest batches, refreshed IP
 * ranges and the sites' robots.txt.
 */
export class CreateAgentAnalytics1763700009000 implements MigrationInterface {
  name = 'CreateAgentAnalytics1763700009000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE bot_visits (
        organization_id bigint NOT NULL,
        brand_id bigint,
        visited_at timestamptz NOT NULL,
        host text NOT NULL,
        path text NOT NULL,
        method text NOT NULL,
        status smallint NOT NULL,
        ip inet NOT NULL,
        user_agent text NOT NULL,
        referer text,
        bytes bigint,
        duration_ms integer,
        bot_name text NOT NULL,
        category text NOT NULL,
        verification text NOT NULL,
        verified_by text,
        robots_disallowed boolean
      ) PARTITION BY RANGE (visited_at)`);
    await q.query(`CREATE INDEX bot_visits_org_time ON bot_visits (organization_id, visited_at DESC)`);
    await q.query(`CREATE INDEX bot_visits_org_bot_time ON bot_visits (organization_id, bot_name, visited_at DESC)`);
    await q.query(`
      CREATE TABLE agent_bot_daily (
        organization_id bigint NOT NULL,
        brand_id bigint NOT NULL,
        host text NOT NULL,
        day date NOT NULL,
        bot_name text NOT NULL,
        category text NOT NULL,
        verification text NOT NULL,
        visits bigint NOT NULL,
        error_visits bigint NOT NULL,
        disallowed_visits bigint NOT NULL,
        last_seen timestamptz NOT NULL,
        PRIMARY KEY (organization_id, day, brand_id, host, bot_name, verification)
      )`);
    await q.query(`
      CREATE TABLE agent_page_daily (
        organization_id bigint NOT NULL,
        brand_id bigint NOT NULL,
        host text NOT NULL,
        day date NOT NULL,
        bot_name text NOT NULL,
        path text NOT NULL,
        status smallint NOT NULL,
        visits bigint NOT NULL,
        disallowed_visits bigint NOT NULL,
        PRIMARY KEY (organization_id, day, brand_id, host, bot_name, path, status)
      )`);
    await q.query(`
      CREATE TABLE ai_referral_daily (
        organization_id bigint NOT NULL,
        brand_id bigint NOT NULL,
        host text NOT NULL,
        day date NOT NULL,
        source text NOT NULL,
        path text NOT NULL,
        visits bigint NOT NULL,
        PRIMARY KEY (organization_id, day, brand_id, host, source, path)
      )`);
    await q.query(`
      CREATE TABLE agent_ingest_batches (
        organization_id bigint NOT NULL,
        idempotency_key text NOT NULL,
        body_hash text NOT NULL,
        response jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, idempotency_key)
      )`);
    await q.query(`
      CREATE TABLE agent_bot_ranges (
        bot_id text PRIMARY KEY,
        source_url text NOT NULL,
        prefixes text[] NOT NULL,
        fetched_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE agent_site_robots (
        host text PRIMARY KEY,
        status integer,
        body text,
        fetched_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE agent_site_robots, agent_bot_ranges, agent_ingest_batches, ai_referral_daily, agent_page_daily, agent_bot_daily, bot_visits');
  }
}
