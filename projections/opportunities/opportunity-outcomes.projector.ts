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

export const OPPORTUNITY_OUTCOME_FACTS = tableShape<FactRow>({
  table: 'opportunity_outcome_facts',
  columns: { id: 'bigint', organization_id: 'bigint', client_id: 'bigint', brand_id: 'bigint', type: 'text', severity: 'text', title: 'text' },
  key: ['id'],
});

/** A row of `opportunity_outcomes` (read by the outcomes summary): the facts at resolution, then the finalised outcome. */
interface OutcomeRow extends Omit<FactRow, 'id'> {
  opportunity_id: number;
  resolved_at: string;
  finalized_at: string | null;
  citation_rate_before: number | null;
  citation_rate_after: number | null;
  ai_traffic_before: number | null;
  ai_traffic_after: number | null;
  conversions: number | null;
  revenue: number | null;
  currency: string | null;
  mention_rate_before: number | null;
  mention_rate_after: number | null;
}

export const OPPORTUNITY_OUTCOMES = tableShape<OutcomeRow>({
  table: 'opportunity_outcomes',
  columns: {
    opportunity_id: 'bigint',
    organization_id: 'bigint',
    client_id: 'bigint',
    brand_id: 'bigint',
    type: 'text',
    severity: 'text',
    title: 'text',
    resolved_at: 'timestamptz',
    finalized_at: 'timestamptz',
    citation_rate_before: 'float8',
    citation_rate_after: 'float8',
    ai_traffic_before: 'float8',
    ai_traffic_after: 'float8',
    conversions: 'float8',
    revenue: 'float8',
    currency: 'text',
    mention_rate_before: 'float8',
    mention_rate_after: 'float8',
  },
  key: ['opportunity_id'],
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
  tables: [OPPORTUNITY_OUTCOMES.table, OPPORTUNITY_OUTCOME_FACTS.table],
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
      await upsertRows(context, OPPORTUNITY_OUTCOME_FACTS, facts, { kind: 'keep' });
    }
    if (resolved.length) {
      await query(
        `INSERT INTO ${table(OPPORTUNITY_OUTCOMES.table)} (opportunity_id, organization_id, client_id, brand_id, type, severity, title, resolved_at)
         SELECT f.id, f.organization_id, f.client_id, f.brand_id, f.type, f.severity, f.title, x.resolved_at
           FROM jsonb_to_recordset($1::jsonb) AS x(id bigint, resolved_at timestamptz)
           JOIN ${table(OPPORTUNITY_OUTCOME_FACTS.table)} f ON f.id = x.id
         ON CONFLICT (opportunity_id) DO NOTHING`,
        [JSON.stringify(resolved)],
      );
    }
    if (outcomes.length) {
      await query(
        `UPDATE ${table(OPPORTUNITY_OUTCOMES.table)} o SET finalized_at = x."finalizedAt", citation_rate_before = x."citationRateBefore",
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
