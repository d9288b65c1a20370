import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook subscriptions, their deliveries (the outbox: PostgreSQL is the source of truth, BullMQ
 * only executes) and every attempt; and the facts the dispatcher keeps about each opportunity.
 */
export class CreateWebhooks1763700003000 implements MigrationInterface {
  name = 'CreateWebhooks1763700003000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhooks (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id),
        client_id bigint,
        url text NOT NULL,
        events text[] NOT NULL,
        description text,
        headers jsonb NOT NULL DEFAULT '{}',
        secret text NOT NULL,
        is_active boolean NOT NULL DEFAULT true,
        deactivated_reason text,
        deactivated_at timestamptz,
        failing_since timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX webhooks_org_idx ON webhooks (organization_id, id DESC)`);
    await q.query(`CREATE INDEX webhooks_active_idx ON webhooks (organization_id) WHERE is_active`);
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY,
        webhook_id bigint NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
        organization_id bigint NOT NULL,
        event_id uuid NOT NULL,
        event_type text NOT NULL,
        body text NOT NULL,
        status text NOT NULL DEFAULT 'pending',
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        enqueued_at timestamptz,
        event_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        last_status_code integer,
        last_error text,
        UNIQUE (event_id, webhook_id)
      )`);
    // The relay's work: pending, due and not yet handed to BullMQ.
    await q.query(`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending' AND enqueued_at IS NULL`);
    // The reconciler's: pending and handed over (BullMQ should hold a job for it).
    await q.query(`CREATE INDEX webhook_deliveries_enqueued_idx ON webhook_deliveries (enqueued_at) WHERE status = 'pending' AND enqueued_at IS NOT NULL`);
    await q.query(`CREATE INDEX webhook_deliveries_history_idx ON webhook_deliveries (webhook_id, created_at DESC, id)`);
    await q.query(`
      CREATE TABLE webhook_delivery_attempts (
        delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
        attempt integer NOT NULL,
        attempted_at timestamptz NOT NULL,
        status_code integer,
        duration_ms integer NOT NULL,
        error text,
        response_excerpt text,
        PRIMARY KEY (delivery_id, attempt)
      )`);
    // The dispatcher's own facts about each opportunity (a projector table: no serial columns).
    await q.query(`
      CREATE TABLE webhook_opportunity_facts (
        id bigint PRIMARY KEY,
        organization_id bigint NOT NULL,
        client_id bigint,
        brand_id bigint NOT NULL,
        type text NOT NULL,
        severity text NOT NULL,
        title text NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE webhook_opportunity_facts, webhook_delivery_attempts, webhook_deliveries, webhooks');
  }
}
