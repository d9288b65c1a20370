import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An ingest `Idempotency-Key` belongs to the credential that sent it (`key:<id>` or `oauth:<id>`),
 * not to its whole organisation: another client of the organisation reusing the same key string
 * must neither get the first batch's answer nor have its own batch dropped. Keys stored before
 * (kept a week) are left with an empty credential, which no request has: a batch first sent
 * before this migration and re-sent after it is counted again.
 */
export class ScopeIngestKeysByCredential1763700009250 implements MigrationInterface {
  name = 'ScopeIngestKeysByCredential1763700009250';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE agent_ingest_batches ADD COLUMN credential text NOT NULL DEFAULT ''`);
    await q.query(`ALTER TABLE agent_ingest_batches ALTER COLUMN credential DROP DEFAULT`);
    await q.query(`ALTER TABLE agent_ingest_batches DROP CONSTRAINT agent_ingest_batches_pkey, ADD PRIMARY KEY (organization_id, credential, idempotency_key)`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Back to one key per organisation: the oldest use of each key string stays.
    await q.query(`DELETE FROM agent_ingest_batches a USING agent_ingest_batches b
                    WHERE a.organization_id = b.organization_id AND a.idempotency_key = b.idempotency_key
                      AND (a.created_at, a.credential) > (b.created_at, b.credential)`);
    await q.query(`ALTER TABLE agent_ingest_batches DROP CONSTRAINT agent_ingest_batches_pkey, ADD PRIMARY KEY (organization_id, idempotency_key)`);
    await q.query(`ALTER TABLE agent_ingest_batches DROP COLUMN credential`);
  }
}
