import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Organisations → clients → brands (+ competitor brands). Every row carries its organisation. */
export class CreateTenancy1763700001000 implements MigrationInterface {
  name = 'CreateTenancy1763700001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE organizations (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        tier text NOT NULL DEFAULT 'free' CHECK (tier IN ('free', 'standard', 'professional', 'enterprise')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE clients (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations(id),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (organization_id, id)
      )`);
    await q.query(`
      CREATE TABLE brands (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations(id),
        client_id bigint,
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        domain text NOT NULL,
        aliases text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        FOREIGN KEY (organization_id, client_id) REFERENCES clients(organization_id, id)
      )`);
    await q.query(`CREATE INDEX brands_org_client_idx ON brands (organization_id, client_id, id)`);
    await q.query(`
      CREATE TABLE competitor_brands (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations(id),
        brand_id bigint NOT NULL REFERENCES brands(id) ON DELETE CASCADE,
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        domain text NOT NULL,
        aliases text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (brand_id, name)
      )`);
    await q.query(`CREATE INDEX competitor_brands_brand_idx ON competitor_brands (organization_id, brand_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE competitor_brands, brands, clients, organizations');
  }
}
