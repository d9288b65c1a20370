import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Brands and competitors own more domains than their main one (a country site, a docs domain): answers citing them count as theirs. */
export class AddExtraDomains1763700006050 implements MigrationInterface {
  name = 'AddExtraDomains1763700006050';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE brands ADD COLUMN extra_domains text[] NOT NULL DEFAULT '{}'`);
    await q.query(`ALTER TABLE competitor_brands ADD COLUMN extra_domains text[] NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE competitor_brands DROP COLUMN extra_domains');
    await q.query('ALTER TABLE brands DROP COLUMN extra_domains');
  }
}
