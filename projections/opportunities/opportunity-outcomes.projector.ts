import type { RecordedEvent } from '@libs/event-store';
import { asOpportunityEvent } from '@libs/opportunities';
import { tableShape, upsertRows, type ProjectionContext, type Projector } from '@libs/projection-engine';
import { brandOwners } from '@libs/tenancy';

interface FactRow {
  id: number;
  organization_id: number;
  client_id: number | null;
  brand_id: number;
  type: string;
  severity: string;
  title: string;
}

const outcomeFacts = tableShape<FactRow>({
  table: 'opportunity_outcome_facts',
  columns: { id: 'bigint', organization_id: 'bigint', client_id: 'bigint', brand_id: 'bigint', type: 'text', severity: 'text', title: 'text' },
  key: ['id'],
});

/**
 * `opportunity_outcomes`: one row per resolved opportunity, with its finalised outcome (citation
 * and mention rates before/after, AI traffic, conversions, revenue; null where unmeasured) once
 * recorded. The facts it needs from detection (organisation, client and brand, type, severity,
 * title) are kept in `opportunity_outcome_facts`.
 */
export const opportunityOutcomesProjector: Projector = {
  name: 'opportunity_outcomes',
  handles: ['opportunity.detected', 'opportunity.transitioned', 'opportunity.outcome_finalized'],
  tables: ['opportunity_outcomes', 'opportunity_outcome_facts'],
  async apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void> {
    const { query, table } = context;
    const facts: FactRow[] = [];
    const resolved: { id: number; resolved_at: string }[] = [];
    const outcomes: Record<string, unknown>[] = [];
    for (const e of events) {
      const id = Number(e.streamId.slice('opportunity-'.length));
      const event = asOpportunityEvent(e);
      if (event.type === 'opportunity.detected') {
        const d = event.data;
        facts.push({ id, organization_id: d.organizationId, client_id: null, brand_id: d.brandId, type: d.type, severity: d.severity, title: d.title });
      } else if (event.type === 'opportunity.transitioned' && event.data.to === 'resolved') {
        resolved.push({ id, resolved_at: event.data.at });
      } else if (event.type === 'opportunity.outcome_finalized') {
        outcomes.push({ id, ...event.data });
      }
    }
    // Applied in event order within the batch: facts, then resolutions, then outcomes.
    if (facts.length) {
      const owners = await brandOwners(query, facts.map((f) => f.brand_id));
      for (const f of facts) f.client_id = owners.get(f.brand_id)?.clientId ?? null;
      await upsertRows(context, outcomeFacts, facts, { kind: 'keep' });
    }
    if (resolved.length) {
      await query(
        `INSERT INTO ${table('opportunity_outcomes')} (opportunity_id, organization_id, client_id, brand_id, type, severity, title, resolved_at)
         SELECT f.id, f.organization_id, f.client_id, f.brand_id, f.type, f.severity, f.title, x.resolved_at
           FROM jsonb_to_recordset($1::jsonb) AS x(id bigint, resolved_at timestamptz)
           JOIN ${table(outcomeFacts.table)} f ON f.id = x.id
         ON CONFLICT (opportunity_id) DO NOTHING`,
        [JSON.stringify(resolved)],
      );
    }
    if (outcomes.length) {
      await query(
        `UPDATE ${table('opportunity_outcomes')} o SET finalized_at = x."finalizedAt", citation_rate_before = x."citationRateBefore",
           citation_rate_after = x."citationRateAfter", ai_traffic_before = x."aiTrafficBefore", ai_traffic_after = x."aiTrafficAfter",
           conversions = x.conversions, revenue = x.revenue, currency = x.currency,
           mention_rate_before = x."mentionRateBefore", mention_rate_after = x."mentionRateAfter"
         FROM jsonb_to_recordset($1::jsonb) AS x(id bigint, "finalizedAt" timestamptz, "citationRateBefore" float8, "citationRateAfter" float8,
           "aiTrafficBefore" float8, "aiTrafficAfter" float8, conversions float8, revenue float8, currency text,
           "mentionRateBefore" float8, "mentionRateAfter" float8)
         WHERE o.opportunity_id = x.id`,
        [JSON.stringify(outcomes)],
      );
    }
  },
};
