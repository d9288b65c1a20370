import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Channels (DESIGN §13.3): a client's connected data sources, each sync recorded, the import
 * idempotency keys, and the daily rows of metrics, campaigns, content and audiences. Every row
 * carries its organisation and client; a row's brand is null when no brand of the client owns it.
 */
export class CreateChannels1763700010000 implements MigrationInterface {
  name = 'CreateChannels1763700010000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE channels (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations(id),
        client_id bigint NOT NULL,
        kind text NOT NULL CHECK (kind IN ('ga4', 'search_console', 'import', 'ai_referrals')),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        brand_id bigint REFERENCES brands(id) ON DELETE SET NULL,
        property_id text,
        site_url text,
        credentials_sealed text,
        backfill_days int NOT NULL DEFAULT 30 CHECK (backfill_days BETWEEN 1 AND 730),
        is_active boolean NOT NULL DEFAULT true,
        cursor_date date,
        next_sync_at timestamptz,
        last_sync_at timestamptz,
        last_sync_status text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        FOREIGN KEY (organization_id, client_id) REFERENCES clients(organization_id, id)
      )`);
    await q.query(`CREATE INDEX channels_client_idx ON channels (organization_id, client_id, id)`);
    await q.query(`CREATE INDEX channels_due_idx ON channels (next_sync_at) WHERE is_active AND kind IN ('ga4', 'search_console', 'ai_referrals')`);
    // One built-in ai_referrals channel per client.
    await q.query(`CREATE UNIQUE INDEX channels_ai_referrals_idx ON channels (client_id) WHERE kind = 'ai_referrals'`);

    await q.query(`
      CREATE TABLE channel_syncs (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id bigint NOT NULL,
        channel_id bigint NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        trigger text NOT NULL CHECK (trigger IN ('schedule', 'manual', 'import')),
        status text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
        start_date date,
        end_date date,
        rows int NOT NULL DEFAULT 0,
        attempts int NOT NULL DEFAULT 0,
        error text,
        queued_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz,
        duration_ms int
      )`);
    await q.query(`CREATE INDEX channel_syncs_channel_idx ON channel_syncs (channel_id, id DESC)`);

    await q.query(`
      CREATE TABLE channel_imports (
        channel_id bigint NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        idempotency_key text NOT NULL,
        organization_id bigint NOT NULL,
        body_sha256 text NOT NULL,
        result jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (channel_id, idempotency_key)
      )`);

    const owner = `organization_id bigint NOT NULL, client_id bigint NOT NULL,
        channel_id bigint NOT NULL REFERENCES channels(id) ON DELETE CASCADE, channel text NOT NULL,
        brand_id bigint, day date NOT NULL`;
    await q.query(`
      CREATE TABLE channel_metrics_daily (
        ${owner},
        sessions bigint, users bigint, new_users bigint, pageviews bigint, conversions numeric, revenue numeric,
        impressions bigint, clicks bigint, ai_sessions bigint
      )`);
    await q.query(`CREATE UNIQUE INDEX channel_metrics_daily_key ON channel_metrics_daily (channel_id, day, (coalesce(brand_id, 0)))`);
    await q.query(`CREATE INDEX channel_metrics_daily_client_idx ON channel_metrics_daily (organization_id, client_id, day DESC)`);
    await q.query(`CREATE INDEX channel_metrics_daily_brand_idx ON channel_metrics_daily (organization_id, brand_id, day DESC)`);

    await q.query(`
      CREATE TABLE channel_campaigns_daily (
        ${owner}, campaign text NOT NULL, source text NOT NULL, medium text NOT NULL,
        sessions bigint, users bigint, conversions numeric, revenue numeric
      )`);
    await q.query(`CREATE UNIQUE INDEX channel_campaigns_daily_key ON channel_campaigns_daily (channel_id, day, (coalesce(brand_id, 0)), campaign, source, medium)`);
    await q.query(`CREATE INDEX channel_campaigns_daily_org_idx ON channel_campaigns_daily (organization_id, client_id, day DESC)`);

    await q.query(`
      CREATE TABLE channel_content_daily (
        ${owner}, page text NOT NULL, query text NOT NULL DEFAULT '',
        sessions bigint, pageviews bigint, conversions numeric, revenue numeric, clicks bigint, impressions bigint, position numeric
      )`);
    await q.query(`CREATE UNIQUE INDEX channel_content_daily_key ON channel_content_daily (channel_id, day, (coalesce(brand_id, 0)), page, query)`);
    await q.query(`CREATE INDEX channel_content_daily_org_idx ON channel_content_daily (organization_id, client_id, day DESC)`);

    await q.query(`
      CREATE TABLE channel_audiences_daily (
        ${owner}, audience text NOT NULL,
        sessions bigint, users bigint, new_users bigint, conversions numeric, revenue numeric
      )`);
    await q.query(`CREATE UNIQUE INDEX channel_audiences_daily_key ON channel_audiences_daily (channel_id, day, (coalesce(brand_id, 0)), audience)`);
    await q.query(`CREATE INDEX channel_audiences_daily_org_idx ON channel_audiences_daily (organization_id, client_id, day DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE channel_audiences_daily, channel_content_daily, channel_campaigns_daily, channel_metrics_daily, channel_imports, channel_syncs, channels');
  }
}
