import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A tracked prompt's market (DESIGN §17, issue 32 part 3): country (ISO 3166-1 alpha-2) and
 * language (BCP 47), both optional. The market is part of the prompt's identity: the same query in
 * two markets is two prompts, so the brand's same-query rule now compares query and market.
 */
export class AddPromptMarkets1795788895100 implements MigrationInterface {
  name = 'AddPromptMarkets1795788895100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tracked_prompts ADD COLUMN country text CHECK (country ~ '^[A-Z]{2}$'), ADD COLUMN language text CHECK (length(language) BETWEEN 2 AND 35)`);
    await q.query(`DROP INDEX tracked_prompts_brand_query_idx`);
    await q.query(`CREATE UNIQUE INDEX tracked_prompts_brand_query_idx ON tracked_prompts (brand_id, lower(query), coalesce(country, ''), coalesce(language, ''))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX tracked_prompts_brand_query_idx`);
    await q.query(`ALTER TABLE tracked_prompts DROP COLUMN country, DROP COLUMN language`);
    await q.query(`CREATE UNIQUE INDEX tracked_prompts_brand_query_idx ON tracked_prompts (brand_id, lower(query))`);
  }
}
