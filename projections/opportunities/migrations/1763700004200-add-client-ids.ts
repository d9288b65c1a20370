import type { MigrationInterface, QueryRunner } from 'typeorm';

const TABLES = ['opportunity_counts', 'opportunity_count_members', 'opportunity_due_buckets', 'opportunity_outcome_facts', 'opportunity_outcomes'];
const PROJECTIONS = ['opportunity_counts', 'opportunity_outcomes'];

/**
 * Every opportunity read model carries organisation, client and brand ids (the house rule), so a
 * client-bound read filters on its own column instead of joining brands. The client is the
 * brand's, stored by the projector from `brandOwners` (null: the organisation's own brand). The
 * two projections start over (tables emptied, checkpoints removed): the worker re-projects them
 * from the event store on its next start.
 */
export class AddClientIds1763700004200 implements MigrationInterface {
  name = 'AddClientIds1763700004200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`TRUNCATE ${TABLES.join(', ')}`);
    await q.query(`DELETE FROM projection_checkpoints WHERE name = ANY($1::text[])`, [PROJECTIONS]);
    for (const table of TABLES) await q.query(`ALTER TABLE ${table} ADD COLUMN client_id bigint`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`TRUNCATE ${TABLES.join(', ')}`);
    await q.query(`DELETE FROM projection_checkpoints WHERE name = ANY($1::text[])`, [PROJECTIONS]);
    for (const table of TABLES) await q.query(`ALTER TABLE ${table} DROP COLUMN client_id`);
  }
}
