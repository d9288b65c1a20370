import type { RecordedEvent } from '@libs/event-store';
import { asOpportunityEvent, evolve, OPPORTUNITIES, OPPORTUNITY_STATE_COLUMNS, opportunityRowFromSql, opportunityRowToSql, type OpportunityRow } from '@libs/opportunities';
import { CounterDeltas, tableShape, upsertRows, type ProjectionContext, type Projector } from '@libs/projection-engine';
import { brandOwners } from '@libs/tenancy';

/** Totals of the list's filters; `client_id` 0 is the organisation's own brands (it is part of the key). */
export const OPPORTUNITY_LIST_COUNTS = tableShape<{ organization_id: number; client_id: number; brand_id: number; type: string; status: string; severity: string; count: number }>({
  table: 'opportunity_list_counts',
  columns: { organization_id: 'bigint', client_id: 'bigint', brand_id: 'bigint', type: 'text', status: 'text', severity: 'text', count: 'bigint' },
  key: ['organization_id', 'client_id', 'brand_id', 'type', 'status', 'severity'],
});

const idOf = (e: RecordedEvent) => Number(e.streamId.slice('opportunity-'.length));

/**
 * `opportunities`: one row per opportunity, the shape the list and the single read return. A
 * batch loads the rows it touches once, folds the events with the domain's `evolve`, and writes
 * each changed row once (one multi-row upsert per batch).
 */
export const opportunitiesProjector: Projector = {
  name: 'opportunities',
  handles: ['opportunity.detected', 'opportunity.transitioned', 'opportunity.verification_recorded', 'opportunity.outcome_finalized'],
  tables: [OPPORTUNITIES.table, OPPORTUNITY_LIST_COUNTS.table],
  async apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void> {
    const { query, table } = context;
    const ids = [...new Set(events.map(idOf))];
    // Named columns, not *: the statement is prepared, and a prepared * breaks when a migration adds a column.
    const existing: Record<string, unknown>[] = await query(`SELECT ${OPPORTUNITY_STATE_COLUMNS} FROM ${table('opportunities')} WHERE id = ANY($1::bigint[])`, [ids]);
    const rows = new Map<number, OpportunityRow>(existing.map((r) => [Number(r.id), opportunityRowFromSql(r)]));
    const before = new Map(rows);
    const typed = events.map((e) => ({ recorded: e, event: asOpportunityEvent(e) }));
    const owners = await brandOwners(query, typed.flatMap(({ event }) => (event.type === 'opportunity.detected' ? [event.data.brandId] : [])));
    for (const { recorded, event } of typed) {
      const id = idOf(recorded);
      const current = rows.get(id);
      if (current && Number(recorded.streamPosition) <= current.state.version) continue; // already applied (idempotent)
      const state = evolve(current?.state ?? null, event);
      rows.set(id, { state, clientId: current?.clientId ?? owners.get(state.brandId)?.clientId ?? null });
    }
    if (!rows.size) return;
    // One statement per batch, whatever its size: the rows travel as one JSON parameter.
    await upsertRows(context, OPPORTUNITIES, [...rows.values()].map(opportunityRowToSql));
    // Totals: each changed row leaves its old (tenant, brand, type, status, severity) cell and joins its new one.
    const totals = new CounterDeltas(OPPORTUNITY_LIST_COUNTS, ['count']);
    const bump = (r: OpportunityRow, by: number) =>
      totals.add({ organization_id: r.state.organizationId, client_id: r.clientId ?? 0, brand_id: r.state.brandId, type: r.state.type, status: r.state.status, severity: r.state.severity }, { count: by });
    for (const [id, after] of rows) {
      const was = before.get(id);
      if (was === after) continue;
      if (was) bump(was, -1);
      bump(after, 1);
    }
    await totals.flush(context);
  },
};
