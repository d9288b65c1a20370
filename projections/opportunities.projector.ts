import type { RecordedEvent } from '@libs/event-store';
import type { ProjectionContext, Projector } from '@libs/projection-engine';
import { OPPORTUNITY_ROW_COLUMNS, OPPORTUNITY_STATE_COLUMNS, evolve, opportunityRowFromSql, opportunityRowToSql, type OpportunityEvent, type OpportunityRow } from '@libs/opportunities';

/**
 * `opportunities`: one row per opportunity, the shape the list and the single read return. A
 * batch loads the rows it touches once, folds the events with the domain's `evolve`, and writes
 * each changed row once (one multi-row upsert per batch).
 */
export const opportunitiesProjector: Projector = {
  name: 'opportunities',
  handles: ['opportunity.detected', 'opportunity.transitioned', 'opportunity.verification_recorded', 'opportunity.outcome_finalized'],
  tables: ['opportunities', 'opportunity_list_counts'],
  async apply(events: readonly RecordedEvent[], { query, table }: ProjectionContext): Promise<void> {
    const ids = [...new Set(events.map((e) => Number(e.streamId.slice('opportunity-'.length))))];
    // Named columns, not *: the statement is prepared, and a prepared * breaks when a migration adds a column.
    const existing: Record<string, unknown>[] = await query(`SELECT ${OPPORTUNITY_STATE_COLUMNS} FROM ${table('opportunities')} WHERE id = ANY($1::bigint[])`, [ids]);
    const rows = new Map<number, OpportunityRow>(existing.map((r) => [Number(r.id), opportunityRowFromSql(r)]));
    const before = new Map(rows);
    const brandIds = [...new Set(events.filter((e) => e.type === 'opportunity.detected').map((e) => Number(e.data.brandId)))];
    const clients = new Map<number, number | null>();
    if (brandIds.length) {
      const found: { id: string; client_id: string | null }[] = await query(`SELECT id, client_id FROM brands WHERE id = ANY($1::bigint[])`, [brandIds]);
      for (const b of found) clients.set(Number(b.id), b.client_id === null ? null : Number(b.client_id));
    }
    for (const e of events) {
      const id = Number(e.streamId.slice('opportunity-'.length));
      const current = rows.get(id);
      if (current && Number(e.streamPosition) <= current.state.version) continue; // already applied (idempotent)
      const state = evolve(current?.state ?? null, { type: e.type, data: e.data } as OpportunityEvent);
      rows.set(id, { state, clientId: current?.clientId ?? clients.get(state.brandId) ?? null });
    }
    if (!rows.size) return;
    // One statement per batch, whatever its size: the rows travel as one JSON parameter.
    const names = OPPORTUNITY_ROW_COLUMNS.map(([c]) => c);
    const updates = names.filter((c) => c !== 'id').map((c) => `${c} = EXCLUDED.${c}`).join(', ');
    await query(
      `INSERT INTO ${table('opportunities')} (${names.join(', ')})
       SELECT ${names.join(', ')} FROM jsonb_to_recordset($1::jsonb) AS x(${OPPORTUNITY_ROW_COLUMNS.map(([c, t]) => `${c} ${t}`).join(', ')})
       ON CONFLICT (id) DO UPDATE SET ${updates}`,
      [JSON.stringify([...rows.values()].map(opportunityRowToSql))],
    );
    // Totals: each changed row leaves its old (tenant, brand, type, status, severity) cell and joins its new one.
    const deltas = new Map<string, number>();
    const bump = (r: OpportunityRow, by: number) => {
      const key = JSON.stringify([r.state.organizationId, r.clientId ?? 0, r.state.brandId, r.state.type, r.state.status, r.state.severity]);
      deltas.set(key, (deltas.get(key) ?? 0) + by);
    };
    for (const [id, after] of rows) {
      const was = before.get(id);
      if (was === after) continue;
      if (was) bump(was, -1);
      bump(after, 1);
    }
    const cells = [...deltas].filter(([, n]) => n !== 0).map(([key, count]) => {
      const [organization_id, client_id, brand_id, type, status, severity] = JSON.parse(key) as unknown[];
      return { organization_id, client_id, brand_id, type, status, severity, count };
    });
    if (!cells.length) return;
    await query(
      `INSERT INTO ${table('opportunity_list_counts')} AS t (organization_id, client_id, brand_id, type, status, severity, count)
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(organization_id bigint, client_id bigint, brand_id bigint, type text, status text, severity text, count bigint)
       ON CONFLICT (organization_id, client_id, brand_id, type, status, severity) DO UPDATE SET count = t.count + EXCLUDED.count`,
      [JSON.stringify(cells)],
    );
  },
};
