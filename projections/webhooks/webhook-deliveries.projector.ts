import type { RecordedEvent } from '@libs/event-store';
import { tableShape, upsertRows, type ProjectionContext, type Projector } from '@libs/projection-engine';
import { brandOwners } from '@libs/tenancy';
import { asOpportunityEvent, evolve, type OpportunityDetected, type OpportunityState } from '@libs/opportunities';
import { DOMAIN_EVENT_TYPES, derivedUuid, dispatchWebhookEvents, webhookEventsFor } from '@libs/webhooks';

export const WEBHOOK_OPPORTUNITY_STATES = tableShape<{ id: number; client_id: number | null; state: OpportunityState }>({
  table: 'webhook_opportunity_states',
  columns: { id: 'bigint', client_id: 'bigint', state: 'jsonb' },
  key: ['id'],
});

const idOf = (e: RecordedEvent) => Number(e.streamId.slice('opportunity-'.length));

interface Known {
  clientId: number | null;
  state: OpportunityState;
}

/**
 * The webhook dispatcher: turns opportunity events into one delivery row per active subscription
 * of the event's organisation that lists the webhook event type (a client-bound subscription
 * only for its client's brands). The rows are written in the batch's transaction, with the
 * checkpoint, so a crash neither loses nor duplicates a delivery; (event id, webhook id) is unique
 * and the delivery id (the `webhook-id` header) is derived from that pair, so it is stable. The
 * body is written once, at dispatch: a retry or a later redelivery sends the payload of its event,
 * whatever the opportunity became since. The NOTIFY is delivered at commit and wakes the worker's
 * outbox relay, which hands the rows to BullMQ.
 *
 * Its table is `webhook_opportunity_states`: each opportunity folded with the domain's `evolve`
 * (and its brand's client), so every payload carries the record at its event's revision. A
 * rebuild replays only the states: deliveries are side effects and are never re-sent for history.
 */
export const webhookDeliveriesProjector: Projector = {
  name: 'webhook_deliveries',
  handles: [...DOMAIN_EVENT_TYPES],
  tables: [WEBHOOK_OPPORTUNITY_STATES.table],
  async apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void> {
    const { query, table, rebuilding } = context;
    const ids = [...new Set(events.map(idOf))];
    const rows: { id: string; client_id: string | null; state: OpportunityState }[] = await query(
      `SELECT id, client_id, state FROM ${table(WEBHOOK_OPPORTUNITY_STATES.table)} WHERE id = ANY($1::bigint[])`,
      [ids],
    );
    const known = new Map<number, Known>(rows.map((r) => [Number(r.id), { clientId: r.client_id === null ? null : Number(r.client_id), state: r.state }]));
    const typed = events.map((e) => ({ recorded: e, event: asOpportunityEvent(e) }));
    const detections = typed.map((t) => t.event).filter((e): e is OpportunityDetected => e.type === 'opportunity.detected');
    const owners = detections.length ? await brandOwners(query, detections.map((e) => e.data.brandId)) : new Map();

    const out: { event_id: string; organization_id: number; client_id: number | null; type: string; body: string; event_at: string }[] = [];
    const touched = new Set<number>();
    for (const { recorded: e, event } of typed) {
      const id = idOf(e);
      const before = known.get(id);
      if (event.type !== 'opportunity.detected' && !before) continue; // detected before this projector kept states: rebuild it
      if (before && e.streamPosition <= BigInt(before.state.version)) continue; // folded already (a batch read again)
      const clientId = event.type === 'opportunity.detected' ? (owners.get(event.data.brandId)?.clientId ?? null) : before!.clientId;
      const state = evolve(before?.state ?? null, event);
      known.set(id, { clientId, state });
      touched.add(id);
      if (rebuilding) continue;
      for (const p of webhookEventsFor(event, { recordedAt: e.recordedAt, actor: (e.metadata.actor as string | null) ?? null }, state)) {
        // One domain event may raise two webhook events (transitioned and resolved): each gets its own id.
        const eventId = p.type === 'opportunity.resolved' ? derivedUuid(e.eventId, p.type) : e.eventId;
        out.push({ event_id: eventId, organization_id: state.organizationId, client_id: clientId, type: p.type, body: JSON.stringify(p), event_at: e.recordedAt.toISOString() });
      }
    }
    await upsertRows(
      context,
      WEBHOOK_OPPORTUNITY_STATES,
      [...touched].map((id) => ({ id, client_id: known.get(id)!.clientId, state: known.get(id)!.state })),
      { kind: 'replace' },
    );
    await dispatchWebhookEvents(query, out);
  },
};
