import type { RecordedEvent } from '@libs/event-store';
import { tableShape, upsertRows, type ProjectionContext, type Projector } from '@libs/projection-engine';
import { brandOwners } from '@libs/tenancy';
import { asOpportunityEvent, type OpportunityDetected } from '@libs/opportunities';
import { DELIVERY_CHANNEL, DOMAIN_EVENT_TYPES, derivedUuid, opportunityFactsOf, webhookEventsFor, type OpportunityFacts } from '@libs/webhooks';

const factsTable = tableShape<{ id: number; organization_id: number; client_id: number | null; brand_id: number; type: string; severity: string; title: string }>({
  table: 'webhook_opportunity_facts',
  columns: { id: 'bigint', organization_id: 'bigint', client_id: 'bigint', brand_id: 'bigint', type: 'text', severity: 'text', title: 'text' },
  key: ['id'],
});

const idOf = (e: RecordedEvent) => Number(e.streamId.slice('opportunity-'.length));

/**
 * The webhook dispatcher: turns opportunity events into one delivery row per active subscription
 * of the event's organisation that lists the webhook event type (a client-bound subscription
 * only for its client's brands). The rows are written in the batch's transaction, with the
 * checkpoint, so a crash neither loses nor duplicates a delivery; (event id, webhook id) is unique
 * and the delivery id (the `webhook-id` header) is derived from that pair, so it is stable. The
 * NOTIFY is delivered at commit and wakes the worker's outbox relay, which hands the rows to BullMQ.
 *
 * Its table is `webhook_opportunity_facts` (what it needs to know about each opportunity from its
 * detection). A rebuild replays only those facts: deliveries are side effects and are never
 * re-sent for history.
 */
export const webhookDeliveriesProjector: Projector = {
  name: 'webhook_deliveries',
  handles: [...DOMAIN_EVENT_TYPES],
  tables: ['webhook_opportunity_facts'],
  async apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void> {
    const { query, table, rebuilding } = context;
    const facts = table(factsTable.table);
    const ids = [...new Set(events.map(idOf))];
    const known: Record<string, unknown>[] = await query(`SELECT id, organization_id, client_id, brand_id, type, severity, title FROM ${facts} WHERE id = ANY($1::bigint[])`, [ids]);
    const byId = new Map<number, OpportunityFacts>(
      known.map((r) => [
        Number(r.id),
        {
          id: Number(r.id), organizationId: Number(r.organization_id), clientId: r.client_id === null ? null : Number(r.client_id),
          brandId: Number(r.brand_id), type: String(r.type), severity: String(r.severity), title: String(r.title),
        },
      ]),
    );
    const typed = events.map((e) => ({ recorded: e, event: asOpportunityEvent(e) }));
    const detected = typed.map((t) => t.event).filter((e): e is OpportunityDetected => e.type === 'opportunity.detected' && !byId.has(e.data.id));
    if (detected.length) {
      const owners = await brandOwners(query, detected.map((e) => e.data.brandId));
      const fresh = detected.map((e) => opportunityFactsOf(e, owners.get(e.data.brandId)?.clientId ?? null));
      for (const f of fresh) byId.set(f.id, f);
      await upsertRows(
        context,
        factsTable,
        fresh.map((f) => ({ id: f.id, organization_id: f.organizationId, client_id: f.clientId, brand_id: f.brandId, type: f.type, severity: f.severity, title: f.title })),
        { kind: 'keep' },
      );
    }
    if (rebuilding) return;

    const out: { event_id: string; organization_id: number; client_id: number | null; type: string; body: string; event_at: string }[] = [];
    for (const { recorded: e, event } of typed) {
      const f = byId.get(idOf(e));
      if (!f) continue; // an opportunity whose detection this projector never saw
      for (const p of webhookEventsFor(event, { recordedAt: e.recordedAt, actor: (e.metadata.actor as string | null) ?? null }, f)) {
        // One domain event may raise two webhook events (transitioned and resolved): each gets its own id.
        const eventId = p.type === 'opportunity.resolved' ? derivedUuid(e.eventId, p.type) : e.eventId;
        out.push({ event_id: eventId, organization_id: f.organizationId, client_id: f.clientId, type: p.type, body: JSON.stringify(p), event_at: e.recordedAt.toISOString() });
      }
    }
    if (!out.length) return;
    const inserted: unknown = await query(
      `INSERT INTO webhook_deliveries (id, webhook_id, organization_id, event_id, event_type, body, event_at)
       SELECT md5(x.event_id::text || '/' || w.id)::uuid, w.id, w.organization_id, x.event_id, x.type, x.body, x.event_at
         FROM jsonb_to_recordset($1::jsonb) AS x(event_id uuid, organization_id bigint, client_id bigint, type text, body text, event_at timestamptz)
         JOIN webhooks w ON w.organization_id = x.organization_id AND w.is_active AND x.type = ANY (w.events)
                        AND (w.client_id IS NULL OR w.client_id = x.client_id)
       ON CONFLICT (event_id, webhook_id) DO NOTHING
       RETURNING 1`,
      [JSON.stringify(out)],
    );
    const rows = Array.isArray(inserted) && Array.isArray(inserted[0]) ? inserted[0] : (inserted as unknown[]);
    if (rows.length) await query(`SELECT pg_notify($1, '')`, [DELIVERY_CHANNEL]);
  },
};
