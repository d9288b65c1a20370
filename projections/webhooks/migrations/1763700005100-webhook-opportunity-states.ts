import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The dispatcher keeps each opportunity's folded state (and its brand's client), so that every
 * webhook carries the opportunity record as it was at the event's stream revision. It replaces
 * the few facts kept from the detection. Opportunities detected before this migration get their
 * state back with `npm run cli -- projections rebuild webhook_deliveries` (a rebuild sends nothing).
 */
export class WebhookOpportunityStates1763700005100 implements MigrationInterface {
  name = 'WebhookOpportunityStates1763700005100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_opportunity_states (
        id bigint PRIMARY KEY,
        client_id bigint,
        state jsonb NOT NULL
      )`);
    await q.query(`DROP TABLE webhook_opportunity_facts`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_opportunity_facts (
        id bigint PRIMARY KEY, organization_id bigint NOT NULL, client_id bigint, brand_id bigint NOT NULL,
        type text NOT NULL, severity text NOT NULL, title text NOT NULL
      )`);
    await q.query(`
      INSERT INTO webhook_opportunity_facts
      SELECT id, (state->>'organizationId')::bigint, client_id, (state->>'brandId')::bigint, state->>'type', state->>'severity', state->>'title'
        FROM webhook_opportunity_states`);
    await q.query(`DROP TABLE webhook_opportunity_states`);
  }
}
