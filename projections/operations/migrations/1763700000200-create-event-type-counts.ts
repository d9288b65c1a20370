import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateEventTypeCounts1763700000200 implements MigrationInterface {
  name = 'CreateEventTypeCounts1763700000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE event_type_counts (
        type text PRIMARY KEY,
        count bigint NOT NULL,
        last_recorded_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE event_type_counts');
  }
}
