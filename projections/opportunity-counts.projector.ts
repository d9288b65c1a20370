import type { RecordedEvent } from '../libs/event-store/src';
import type { ProjectionContext, Projector } from '../libs/projection-engine/src';

interface Member {
  organizationId: number;
  brandId: number;
  severity: string;
  status: string;
}

/**
 * `opportunity_counts`: how many opportunities each brand has, by status and severity (the KPI
 * summary). It keeps the facts it needs (brand, severity, current status) in its own
 * `opportunity_count_members` table, so it depends on no other projection.
 */
export const opportunityCountsProjector: Projector = {
  name: 'opportunity_counts',
  handles: ['opportunity.detected', 'opportunity.transitioned'],
  tables: ['opportunity_counts', 'opportunity_count_members'],
  async apply(events: readonly RecordedEvent[], { manager, table }: ProjectionContext): Promise<void> {
    const ids = [...new Set(events.map((e) => Number(e.streamId.slice('opportunity-'.length))))];
    const found: { id: string; organization_id: string; brand_id: string; severity: string; status: string }[] = await manager.query(
      `SELECT * FROM ${table('opportunity_count_members')} WHERE id = ANY($1::bigint[])`,
      [ids],
    );
    const members = new Map<number, Member>(
      found.map((m) => [Number(m.id), { organizationId: Number(m.organization_id), brandId: Number(m.brand_id), severity: m.severity, status: m.status }]),
    );
    const changed = new Set<number>();
    const deltas = new Map<string, number>();
    const bump = (m: Member, status: string, by: number) => {
      const key = JSON.stringify([m.organizationId, m.brandId, status, m.severity]);
      deltas.set(key, (deltas.get(key) ?? 0) + by);
    };
    for (const e of events) {
      const id = Number(e.streamId.slice('opportunity-'.length));
      if (e.type === 'opportunity.detected') {
        if (members.has(id)) continue; // already counted
        const m = { organizationId: Number(e.data.organizationId), brandId: Number(e.data.brandId), severity: String(e.data.severity), status: 'detected' };
        members.set(id, m);
        bump(m, 'detected', 1);
      } else {
        const m = members.get(id);
        if (!m || m.status !== e.data.from) continue; // unknown or already applied
        bump(m, m.status, -1);
        m.status = String(e.data.to);
        bump(m, m.status, 1);
      }
      changed.add(id);
    }
    if (!changed.size) return;
    await manager.query(
      `INSERT INTO ${table('opportunity_count_members')} AS t (id, organization_id, brand_id, severity, status)
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(id bigint, organization_id bigint, brand_id bigint, severity text, status text)
       ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status`,
      [JSON.stringify([...changed].map((id) => {
        const m = members.get(id)!;
        return { id, organization_id: m.organizationId, brand_id: m.brandId, severity: m.severity, status: m.status };
      }))],
    );
    const rows = [...deltas].filter(([, by]) => by !== 0).map(([key, by]) => {
      const [organization_id, brand_id, status, severity] = JSON.parse(key) as [number, number, string, string];
      return { organization_id, brand_id, status, severity, count: by };
    });
    if (!rows.length) return;
    await manager.query(
      `INSERT INTO ${table('opportunity_counts')} AS t (organization_id, brand_id, status, severity, count)
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(organization_id bigint, brand_id bigint, status text, severity text, count bigint)
       ON CONFLICT (organization_id, brand_id, status, severity) DO UPDATE SET count = t.count + EXCLUDED.count`,
      [JSON.stringify(rows)],
    );
  },
};
