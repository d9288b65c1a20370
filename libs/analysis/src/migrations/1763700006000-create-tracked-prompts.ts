import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Tracked prompts of a brand and the brand's schedule (DESIGN §13.1). Every row carries its organisation. */
export class CreateTrackedPrompts1763700006000 implements MigrationInterface {
  name = 'CreateTrackedPrompts1763700006000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE tracked_prompts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations(id),
        brand_id bigint NOT NULL REFERENCES brands(id) ON DELETE CASCADE,
        query text NOT NULL CHECK (length(query) BETWEEN 1 AND 1000),
        topic text CHECK (length(topic) BETWEEN 1 AND 200),
        tags text[] NOT NULL DEFAULT '{}',
        providers text[] NOT NULL CHECK (cardinality(providers) >= 1 AND providers <@ ARRAY['chatgpt', 'claude', 'gemini', 'perplexity']),
        is_active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX tracked_prompts_brand_query_idx ON tracked_prompts (brand_id, lower(query))`);
    await q.query(`CREATE INDEX tracked_prompts_active_idx ON tracked_prompts (brand_id, id) WHERE is_active`);
    await q.query(`
      CREATE TABLE brand_schedules (
        brand_id bigint PRIMARY KEY REFERENCES brands(id) ON DELETE CASCADE,
        organization_id bigint NOT NULL REFERENCES organizations(id),
        schedule text NOT NULL CHECK (schedule IN ('daily', 'weekly', 'off')),
        last_run_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE brand_schedules, tracked_prompts');
  }
}
