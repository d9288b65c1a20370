import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A brand's registered facts (founding year, starting price, headquarters, product names), checked against answers. */
export class CreateBrandFacts1763700006300 implements MigrationInterface {
  name = 'CreateBrandFacts1763700006300';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE brand_facts (
        brand_id bigint PRIMARY KEY REFERENCES brands(id) ON DELETE CASCADE,
        organization_id bigint NOT NULL REFERENCES organizations(id),
        facts jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE brand_facts');
  }
}
