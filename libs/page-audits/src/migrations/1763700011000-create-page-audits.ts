import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Page audits (DESIGN §13.5): each audit, each page's result in it (kept: a page's score history),
 * and the latest scored result of each of a brand's pages (what geo/pages lists and sorts).
 */
export class CreatePageAudits1763700011000 implements MigrationInterface {
  name = 'CreatePageAudits1763700011000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE page_audits (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL,
        client_id bigint,
        brand_id bigint NOT NULL,
        source text NOT NULL CHECK (source IN ('urls', 'sitemap')),
        sitemap_url text,
        requested_urls jsonb NOT NULL DEFAULT '[]',
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'completed', 'failed')),
        pages_total integer NOT NULL DEFAULT 0,
        pages_done integer NOT NULL DEFAULT 0,
        pages_failed integer NOT NULL DEFAULT 0,
        urls_dropped integer NOT NULL DEFAULT 0,
        reason text,
        requested_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        completed_at timestamptz
      )`);
    await q.query(`CREATE INDEX page_audits_tenant_idx ON page_audits (organization_id, brand_id, id DESC)`);
    await q.query(`
      CREATE TABLE page_audit_results (
        id bigserial PRIMARY KEY,
        audit_id bigint NOT NULL REFERENCES page_audits (id) ON DELETE CASCADE,
        n integer NOT NULL,
        organization_id bigint NOT NULL,
        client_id bigint,
        brand_id bigint NOT NULL,
        url text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'scored', 'not_modified', 'failed', 'skipped')),
        reason text,
        http_status integer,
        final_url text,
        etag text,
        last_modified text,
        score integer,
        components jsonb,
        recommendations jsonb,
        bot_access jsonb,
        signals jsonb,
        kinds text[],
        duration_ms integer,
        fetched_at timestamptz,
        UNIQUE (audit_id, n)
      )`);
    await q.query(`CREATE INDEX page_audit_results_page_idx ON page_audit_results (brand_id, url, id DESC)`);
    await q.query(`
      CREATE TABLE page_audit_pages (
        organization_id bigint NOT NULL,
        client_id bigint,
        brand_id bigint NOT NULL,
        url text NOT NULL,
        result_id bigint NOT NULL,
        audit_id bigint NOT NULL,
        score integer NOT NULL,
        audited_at timestamptz NOT NULL,
        PRIMARY KEY (brand_id, url)
      )`);
    await q.query(`CREATE INDEX page_audit_pages_score_idx ON page_audit_pages (organization_id, brand_id, score DESC, url)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE page_audit_pages, page_audit_results, page_audits');
  }
}
