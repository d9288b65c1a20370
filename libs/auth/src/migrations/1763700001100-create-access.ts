import type { MigrationInterface, QueryRunner } from 'typeorm';

/** API keys and OAuth 2.0 (clients, tokens, authorisation codes). Secrets are stored hashed (SHA-256). */
export class CreateAccess1763700001100 implements MigrationInterface {
  name = 'CreateAccess1763700001100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE api_keys (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations(id),
        client_id bigint,
        name text,
        key_hash bytea NOT NULL,
        last_four text NOT NULL,
        scopes text[] NOT NULL,
        tier text NOT NULL CHECK (tier IN ('free', 'standard', 'professional', 'enterprise')),
        expires_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        FOREIGN KEY (organization_id, client_id) REFERENCES clients(organization_id, id)
      )`);
    await q.query(`CREATE UNIQUE INDEX api_keys_hash_idx ON api_keys (key_hash)`);
    await q.query(`CREATE INDEX api_keys_org_idx ON api_keys (organization_id, id)`);
    await q.query(`
      CREATE TABLE oauth_clients (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations(id),
        client_id text NOT NULL UNIQUE,
        secret_hash bytea NOT NULL,
        name text,
        scopes text[] NOT NULL,
        redirect_uris text[] NOT NULL DEFAULT '{}',
        tier text NOT NULL CHECK (tier IN ('free', 'standard', 'professional', 'enterprise')),
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE oauth_authorization_codes (
        code_hash bytea PRIMARY KEY,
        oauth_client_id bigint NOT NULL REFERENCES oauth_clients(id),
        organization_id bigint NOT NULL REFERENCES organizations(id),
        approved_by_key_id bigint NOT NULL REFERENCES api_keys(id),
        redirect_uri text NOT NULL,
        scopes text[] NOT NULL,
        code_challenge text NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE oauth_tokens (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        token_hash bytea NOT NULL UNIQUE,
        kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
        oauth_client_id bigint NOT NULL REFERENCES oauth_clients(id),
        organization_id bigint NOT NULL REFERENCES organizations(id),
        client_id bigint,
        scopes text[] NOT NULL,
        family_id uuid,
        expires_at timestamptz NOT NULL,
        rotated_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX oauth_tokens_family_idx ON oauth_tokens (family_id) WHERE family_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE oauth_tokens, oauth_authorization_codes, oauth_clients, api_keys');
  }
}
