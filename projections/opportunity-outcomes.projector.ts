import type { RecordedEvent } from '@libs/event-store';
import type { ProjectionContext, Projector } from '@libs/projection-engine';

/**
 * `opportunity_outcomes`: one row per resolved opportunity, with its finalised outcome (citation
 * rate before/after, AI traffic, conversions, revenue) once recorded. The facts it needs from
 * detection (brand, type, severity, title) are kept in `opportunity_outcome_facts`.
 */
export const opportunityOutcomesProjector: Projector = {
  name: 'opportunity_outcomes',
  handles: ['opportunity.detected', 'opportunity.transitioned', 'opportunity.outcome_finalized'],
  tables: ['opportunity_outcomes', 'opportunity_outcome_facts'],
  async apply(events: readonly RecordedEvent[], { query, table }: ProjectionContext): Promise<void> {
    const facts: Record<string, unknown>[] = [];
    const resolved: Record<string, unknown>[] = [];
    const outcomes: Record<string, unknown>[] = [];
    for (const e of events) {
      const id = Number(e.streamId.slice('opportunity-'.length));
      const d = e.data;
      if (e.type === 'opportunity.detected') {
        facts.push({ id, organization_id: d.organizationId, brand_id: d.brandId, type: d.type, severity: d.severity, title: d.title });
      } else if (e.type === 'opportunity.transitioned' && d.to === 'resolved') {
        resolved.push({ id, resolved_at: d.at });
      } else if (e.type === 'opportunity.outcome_finalized') {
        outcomes.push({ id, ...d });
      }
    }
    // Applied in event order within the batch: facts, then resolutions, then outcomes.
    if (facts.length) {
      await query(
        `INSERT INTO ${table('opportunity_outcome_facts')} (id, organization_id, brand_id, type, severity, title)
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(id bigint, organization_id bigint, brand_id bigint, type text, severity text, title text)
         ON CONFLICT (id) DO NOTHING`,
        [JSON.stringify(facts)],
      );
    }
    if (resolved.length) {
      await query(
        `INSERT INTO ${table('opportunity_outcomes')} (opportunity_id, organization_id, brand_id, type, severity, title, resolved_at)
         SELECT f.id, f.organization_id, f.brand_id, f.type, f.severity, f.title, x.resolved_at
           FROM jsonb_to_recordset($1::jsonb) AS x(id bigint, resolved_at timestamptz)
           JOIN ${table('opportunity_outcome_facts')} f ON f.id = x.id
         ON CONFLICT (opportunity_id) DO NOTHING`,
        [JSON.stringify(resolved)],
      );
    }
    if (outcomes.length) {
      await query(
        `UPDATE ${table('opportunity_outcomes')} o SET finalized_at = x."finalizedAt", citation_rate_before = x."citationRateBefore",
           citation_rate_after = x."citationRateAfter", ai_traffic_before = x."aiTrafficBefore", ai_traffic_after = x."aiTrafficAfter",
           conversions = x.conversions, revenue = x.revenue, currency = x.currency
         FROM jsonb_to_recordset($1::jsonb) AS x(id bigint, "finalizedAt" timestamptz, "citationRateBefore" float8, "citationRateAfter" float8,
           "aiTrafficBefore" float8, "aiTrafficAfter" float8, conversions float8, revenue float8, currency text)
         WHERE o.opportunity_id = x.id`,
        [JSON.stringify(outcomes)],
      );
    }
  },
};
