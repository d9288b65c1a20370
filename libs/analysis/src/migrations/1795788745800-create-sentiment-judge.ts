import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sentiment judge (issue 32): each organisation's choice (`cli judge set`; none: off), and the
 * cache of the judge's labels keyed by a hash of answer text, entity names, prompt version and model.
 */
export class CreateSentimentJudge1795788745800 implements MigrationInterface {
  name = 'CreateSentimentJudge1795788745800';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sentiment_judge_settings (
        organization_id bigint PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
        provider text NOT NULL CHECK (provider IN ('openai', 'anthropic')),
        model text,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE sentiment_judge_cache (
        cache_key text PRIMARY KEY,
        labeller text NOT NULL,
        labels jsonb NOT NULL,
        usage jsonb,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE sentiment_judge_cache, sentiment_judge_settings');
  }
}
