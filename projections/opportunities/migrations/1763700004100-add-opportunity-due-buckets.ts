import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The SLA breach total without counting rows one by one: open opportunities are counted by the
 * UTC month, day, hour and ten minutes they fall due (`opportunity_due_buckets`, one row per
 * tenant, span, bucket and brand), so "breached now" is a sum over the months before this one,
 * this month's days before today, today's hours before this one and this hour's ten-minute
 * buckets before the current one (a few dozen rows), plus the rows of the current ten minutes
 * already past due. Members keep the exact due time; the day-only table goes. The projection
 * starts over (tables emptied, checkpoint removed): the worker re-projects it from the event
 * store on its next start.
 */
export class AddOpportunityDueBuckets1763700004100 implements MigrationInterface {
  name = 'AddOpportunityDueBuckets1763700004100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`TRUNCATE opportunity_counts, opportunity_count_members`);
    await q.query(`DELETE FROM projection_checkpoints WHERE name = 'opportunity_counts'`);
    await q.query(`DROP TABLE opportunity_due_counts`);
    await q.query(`ALTER TABLE opportunity_count_members DROP COLUMN due_day, ADD COLUMN due_at timestamptz NOT NULL`);
    // Led by the tenant, the span and the bucket: each span's range of every brand is one index range.
    await q.query(`
      CREATE TABLE opportunity_due_buckets (
        organization_id bigint NOT NULL,
        span text NOT NULL CHECK (span IN ('month', 'day', 'hour', '10min')),
        bucket_start timestamptz NOT NULL,
        brand_id bigint NOT NULL,
        count bigint NOT NULL,
        PRIMARY KEY (organization_id, span, bucket_start, brand_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE opportunity_due_buckets`);
    await q.query(`TRUNCATE opportunity_counts, opportunity_count_members`);
    await q.query(`DELETE FROM projection_checkpoints WHERE name = 'opportunity_counts'`);
    await q.query(`ALTER TABLE opportunity_count_members DROP COLUMN due_at, ADD COLUMN due_day date NOT NULL`);
    await q.query(`
      CREATE TABLE opportunity_due_counts (
        organization_id bigint NOT NULL,
        brand_id bigint NOT NULL,
        due_day date NOT NULL,
        count bigint NOT NULL,
        PRIMARY KEY (organization_id, brand_id, due_day)
      )`);
  }
}
