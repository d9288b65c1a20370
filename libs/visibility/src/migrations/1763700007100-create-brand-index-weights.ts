import type { MigrationInterface, QueryRunner } from 'typeorm';

/** An organisation's own brand-index weights (DESIGN §14: "the weights are configurable per organisation"). */
export class CreateBrandIndexWeights1763700007100 implements MigrationInterface {
  name = 'CreateBrandIndexWeights1763700007100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE brand_index_weights (
        organization_id bigint PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
        weights jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE brand_index_weights');
  }
}
