import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Content rows by brand and day: prompt discoveries read a brand's Search Console queries over a
 * period (`organization_id, brand_id, day`), which the client index did not serve (a scan of the
 * organisation's rows). Partial: only rows mapped to a brand are read this way.
 */
export class AddContentBrandIndex1763700010100 implements MigrationInterface {
  name = 'AddContentBrandIndex1763700010100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX channel_content_daily_brand_idx ON channel_content_daily (organization_id, brand_id, day DESC) WHERE brand_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX channel_content_daily_brand_idx');
  }
}
