import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The token family an authorization code was exchanged for, so that presenting the code again
 * revokes every token issued from it (RFC 6749 §4.1.2).
 */
export class AuthorizationCodeFamilies1763700005000 implements MigrationInterface {
  name = 'AuthorizationCodeFamilies1763700005000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oauth_authorization_codes ADD COLUMN family_id uuid`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oauth_authorization_codes DROP COLUMN family_id`);
  }
}
