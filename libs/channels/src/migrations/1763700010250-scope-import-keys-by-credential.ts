import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An import's `Idempotency-Key` belongs to the channel and the credential that sent it
 * (`key:<id>`, `oauth:<id>`, or `cli` for `metrics import`), so two callers of one channel never
 * answer each other's files. Keys stored before are left with an empty credential, which no
 * request has: their files, sent again, are imported again (an import replaces its days, so
 * figures are not doubled).
 */
export class ScopeImportKeysByCredential1763700010250 implements MigrationInterface {
  name = 'ScopeImportKeysByCredential1763700010250';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE channel_imports ADD COLUMN credential text NOT NULL DEFAULT ''`);
    await q.query(`ALTER TABLE channel_imports ALTER COLUMN credential DROP DEFAULT`);
    await q.query(`ALTER TABLE channel_imports DROP CONSTRAINT channel_imports_pkey, ADD PRIMARY KEY (channel_id, credential, idempotency_key)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM channel_imports a USING channel_imports b
                    WHERE a.channel_id = b.channel_id AND a.idempotency_key = b.idempotency_key
                      AND (a.created_at, a.credential) > (b.created_at, b.credential)`);
    await q.query(`ALTER TABLE channel_imports DROP CONSTRAINT channel_imports_pkey, ADD PRIMARY KEY (channel_id, idempotency_key)`);
    await q.query(`ALTER TABLE channel_imports DROP COLUMN credential`);
  }
}
