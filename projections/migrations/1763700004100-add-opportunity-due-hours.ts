import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The SLA breach total without counting today's rows one by one: open opportunities are also
 * counted by the UTC hour they fall due, so "breached now" is the days before today, plus today's
 * hours before this one, plus the rows of this hour already past due (a few). Members keep the
 * exact due time. The projection starts over (tables emptied, checkpoint removed): the worker
 * re-projects it from the event store on its next start.
 */
export class AddOpportunityDueHours1763700004100 implements MigrationInterface {
  name = 'AddOpportunityDueHours1763700004100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`TRUNCATE opportunity_counts, opportunity_count_members, opportunity_due_counts`);
    await q.query(`DELETE FROM projection_checkpoints WHERE name = 'opportunity_counts'`);
    await q.query(`ALTER TABLE opportunity_count_members DROP COLUMN due_day, ADD COLUMN due_at timestamptz NOT NULL`);
    // Led by the tenant and the hour, so today's hours of every brand are one short index range.
    await q.query(`
      CREATE TABLE opportunity_due_hour_counts (
        organization_id bigint NOT NULL,
        due_hour timestamptz NOT NULL,
        brand_id bigint NOT NULL,
        count bigint NOT NULL,
        PRIMARY KEY (organization_id, due_hour, brand_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE opportunity_due_hour_counts`);
    await q.query(`TRUNCATE opportunity_counts, opportunity_count_members, opportunity_due_counts`);
    await q.query(`DELETE FROM projection_checkpoints WHERE name = 'opportunity_counts'`);
    await q.query(`ALTER TABLE opportunity_count_members DROP COLUMN due_at, ADD COLUMN due_day date NOT NULL`);
  }
}
