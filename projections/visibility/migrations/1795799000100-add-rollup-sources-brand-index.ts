import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A brand's answers in `answer_rollup_sources` by an index on the brand of each contribution's
 * cell: what a per-brand rollup rebuild (`{rollup-rebuilds}`) sums, without reading every answer.
 */
export class AddRollupSourcesBrandIndex1795799000100 implements MigrationInterface {
  name = 'AddRollupSourcesBrandIndex1795799000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX answer_rollup_sources_brand ON answer_rollup_sources (((contribution #>> '{cell,brand_id}')::bigint))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX answer_rollup_sources_brand`);
  }
}
