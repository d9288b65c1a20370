import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The list projection keeps each opportunity's record as JSON text (`document`, all but the
 * SLA's time-dependent end), so a list page is stored text, not columns parsed and re-serialised.
 * The column can only be filled by the projector, so the projection starts over: its rows and
 * totals are emptied and its checkpoint removed, and the worker re-projects it from the event
 * store (the source of truth) on its next start. `projections status` shows the catch-up.
 */
export class AddOpportunityDocuments1763700004000 implements MigrationInterface {
  name = 'AddOpportunityDocuments1763700004000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`TRUNCATE opportunities, opportunity_list_counts`);
    await q.query(`DELETE FROM projection_checkpoints WHERE name = 'opportunities'`);
    await q.query(`ALTER TABLE opportunities ADD COLUMN document text NOT NULL`);
    // No read filters on the fingerprint (de-duplication claims live in the event store): one index less to keep.
    await q.query(`DROP INDEX opportunities_fingerprint_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE opportunities DROP COLUMN document`);
    await q.query(`CREATE INDEX opportunities_fingerprint_idx ON opportunities (organization_id, fingerprint)`);
  }
}
