import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateProjectionCheckpoints1763700000100 implements MigrationInterface {
  name = 'CreateProjectionCheckpoints1763700000100';

  async up(q: QueryRunner): Promise<void> {
    // numeric(20): EventStoreDB positions are unsigned 64-bit.
    await q.query(`
      CREATE TABLE projection_checkpoints (
        name text PRIMARY KEY,
        commit_position numeric(20, 0) NOT NULL,
        prepare_position numeric(20, 0) NOT NULL,
        events_applied bigint NOT NULL DEFAULT 0,
        owner text,
        updated_at timestamptz,
        rebuilt_at timestamptz
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE projection_checkpoints');
  }
}
