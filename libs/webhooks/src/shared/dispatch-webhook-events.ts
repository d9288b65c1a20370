import type { QueryFn } from '@libs/tenancy';
import { DELIVERY_CHANNEL } from '../webhooks.repository';

/** One webhook event to hand to the subscriptions that list its type (its body is the signed payload, written once). */
export interface WebhookEventRow {
  /** A UUID, stable for the event: with the webhook's id it makes the delivery id (the `webhook-id` header). */
  event_id: string;
  organization_id: number;
  client_id: number | null;
  type: string;
  body: string;
  event_at: string;
}

/**
 * Writes one delivery per active subscription of the event's organisation that lists its type (a
 * client-bound subscription only for its client's brands), in the caller's transaction; an event
 * already delivered to a subscription is not added again. Wakes the outbox relay when it added any.
 */
export async function dispatchWebhookEvents(query: QueryFn, events: readonly WebhookEventRow[]): Promise<void> {
  if (!events.length) return;
  const inserted: unknown = await query(
    `INSERT INTO webhook_deliveries (id, webhook_id, organization_id, event_id, event_type, body, event_at)
     SELECT md5(x.event_id::text || '/' || w.id)::uuid, w.id, w.organization_id, x.event_id, x.type, x.body, x.event_at
       FROM jsonb_to_recordset($1::jsonb) AS x(event_id uuid, organization_id bigint, client_id bigint, type text, body text, event_at timestamptz)
       JOIN webhooks w ON w.organization_id = x.organization_id AND w.is_active AND x.type = ANY (w.events)
                      AND (w.client_id IS NULL OR w.client_id = x.client_id)
     ON CONFLICT (event_id, webhook_id) DO NOTHING
     RETURNING 1`,
    [JSON.stringify(events)],
  );
  const added = Array.isArray(inserted) && Array.isArray(inserted[0]) ? inserted[0] : (inserted as unknown[]);
  if (added.length) await query(`SELECT pg_notify($1, '')`, [DELIVERY_CHANNEL]);
}

/** Which of these organisations have an active subscription listing `type` (so a dispatcher builds bodies only for them). */
export async function organizationsSubscribedTo(query: QueryFn, type: string, organizationIds: readonly number[]): Promise<Set<number>> {
  if (!organizationIds.length) return new Set();
  const rows = await query<{ organization_id: string }>(`SELECT DISTINCT organization_id FROM webhooks WHERE organization_id = ANY($1::bigint[]) AND is_active AND $2 = ANY (events)`, [
    [...new Set(organizationIds)],
    type,
  ]);
  return new Set(rows.map((r) => Number(r.organization_id)));
}
