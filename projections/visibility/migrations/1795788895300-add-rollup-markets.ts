import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The market as a rollup dimension (DESIGN §17): country and language in each cell's key ('' when
 * the answer was asked without one, so existing rows keep their figures and stay one cell).
 */
export class AddRollupMarkets1795788895300 implements MigrationInterface {
  name = 'AddRollupMarkets1795788895300';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE answer_daily_rollups ADD COLUMN country text NOT NULL DEFAULT '', ADD COLUMN language text NOT NULL DEFAULT ''`);
    await q.query(`ALTER TABLE answer_daily_rollups DROP CONSTRAINT answer_daily_rollups_pkey`);
    await q.query(`ALTER TABLE answer_daily_rollups ADD PRIMARY KEY (brand_id, day, provider, prompt_id, query, country, language, entity_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM answer_daily_rollups WHERE country <> '' OR language <> ''`);
    await q.query(`ALTER TABLE answer_daily_rollups DROP CONSTRAINT answer_daily_rollups_pkey`);
    await q.query(`ALTER TABLE answer_daily_rollups DROP COLUMN country, DROP COLUMN language`);
    await q.query(`ALTER TABLE answer_daily_rollups ADD PRIMARY KEY (brand_id, day, provider, prompt_id, query, entity_id)`);
  }
}
