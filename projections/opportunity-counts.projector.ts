import type { RecordedEvent } from '@libs/event-store';
import type { ProjectionContext, Projector } from '@libs/projection-engine';

interface Member {
  organizationId: number;
  brandId: number;
  severity: string;
  status: string;
  /** When the SLA falls due (ISO 8601, UTC). */
  dueAt: string;
}

/**
 * The UTC calendar buckets a due time falls in, coarse to fine (see the migration: the breach
 * total sums whole buckets before now and counts only the current ten minutes' rows).
 */
export function dueBuckets(dueAt: string): [span: 'month' | 'day' | 'hour' | '10min', start: string][] {
  const iso = new Date(dueAt).toISOString();
  return [
    ['month', `${iso.slice(0, 7)}-01T00:00:00.000Z`],
    ['day', `${iso.slice(0, 10)}T00:00:00.000Z`],
    ['hour', `${iso.slice(0, 13)}:00:00.000Z`],
    ['10min', `${iso.slice(0, 15)}0:00.000Z`],
  ];
}

const TERMINAL = new Set(['resolved', 'dismissed']);

/**
 * `opportunity_counts`: how many opportunities each brand has, by status and severity (the KPI
 * summary), and `opportunity_due_buckets`: open opportunities by the UTC month, day, hour and
 * ten minutes they fall due (so the SLA breach total is a sum of a few dozen rows plus the current
 * ten minutes' rows past due). It keeps the facts it needs (brand, severity, current status,
 * due time) in its own `opportunity_count_members` table, so it depends on no other projection.
 */
export const opportunityCountsProjector: Projector = {
  name: 'opportunity_counts',
  handles: ['opportunity.detected', 'opportunity.transitioned'],
  tables: ['opportunity_counts', 'opportunity_count_members', 'opportunity_due_buckets'],
  async apply(events: readonly RecordedEvent[], { query, table }: ProjectionContext): Promise<void> {
    const ids = [...new Set(events.map((e) => Number(e.streamId.slice('opportunity-'.length))))];
    const found: { id: string; organization_id: string; brand_id: string; severity: string; status: string; due_at: Date }[] = await query(
      `SELECT id, organization_id, brand_id, severity, status, due_at FROM ${table('opportunity_count_members')} WHERE id = ANY($1::bigint[])`,
      [ids],
    );
    const members = new Map<number, Member>(
      found.map((m) => [
        Number(m.id),
        { organizationId: Number(m.organization_id), brandId: Number(m.brand_id), severity: m.severity, status: m.status, dueAt: m.due_at.toISOString() },
      ]),
    );
    const changed = new Set<number>();
    const deltas = new Map<string, number>();
    const dueDeltas = new Map<string, number>();
    const bump = (m: Member, status: string, by: number) => {
      const key = JSON.stringify([m.organizationId, m.brandId, status, m.severity]);
      deltas.set(key, (deltas.get(key) ?? 0) + by);
    };
    const bumpDue = (m: Member, by: number) => {
      for (const [span, start] of dueBuckets(m.dueAt)) {
        const key = JSON.stringify([m.organizationId, span, start, m.brandId]);
        dueDeltas.set(key, (dueDeltas.get(key) ?? 0) + by);
      }
    };
    for (const e of events) {
      const id = Number(e.streamId.slice('opportunity-'.length));
      if (e.type === 'opportunity.detected') {
        if (members.has(id)) continue; // already counted
        const m = {
          organizationId: Number(e.data.organizationId),
          brandId: Number(e.data.brandId),
          severity: String(e.data.severity),
          status: 'detected',
          dueAt: new Date(String(e.data.dueAt)).toISOString(),
        };
        members.set(id, m);
        bump(m, 'detected', 1);
        bumpDue(m, 1);
      } else {
        const m = members.get(id);
        if (!m || m.status !== e.data.from) continue; // unknown or already applied
        bump(m, m.status, -1);
        const wasOpen = !TERMINAL.has(m.status);
        m.status = String(e.data.to);
        bump(m, m.status, 1);
        if (wasOpen && TERMINAL.has(m.status)) bumpDue(m, -1);
      }
      changed.add(id);
    }
    if (!changed.size) return;
    await query(
      `INSERT INTO ${table('opportunity_count_members')} AS t (id, organization_id, brand_id, severity, status, due_at)
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(id bigint, organization_id bigint, brand_id bigint, severity text, status text, due_at timestamptz)
       ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status`,
      [JSON.stringify([...changed].map((id) => {
        const m = members.get(id)!;
        return { id, organization_id: m.organizationId, brand_id: m.brandId, severity: m.severity, status: m.status, due_at: m.dueAt };
      }))],
    );
    const dueRows = [...dueDeltas].filter(([, by]) => by !== 0).map(([key, count]) => {
      const [organization_id, span, bucket_start, brand_id] = JSON.parse(key) as [number, string, string, number];
      return { organization_id, span, bucket_start, brand_id, count };
    });
    if (dueRows.length) {
      await query(
        `INSERT INTO ${table('opportunity_due_buckets')} AS t (organization_id, span, bucket_start, brand_id, count)
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(organization_id bigint, span text, bucket_start timestamptz, brand_id bigint, count bigint)
         ON CONFLICT (organization_id, span, bucket_start, brand_id) DO UPDATE SET count = t.count + EXCLUDED.count`,
        [JSON.stringify(dueRows)],
      );
    }
    const rows = [...deltas].filter(([, by]) => by !== 0).map(([key, by]) => {
      const [organization_id, brand_id, status, severity] = JSON.parse(key) as [number, number, string, string];
      return { organization_id, brand_id, status, severity, count: by };
    });
    if (!rows.length) return;
    await query(
      `INSERT INTO ${table('opportunity_counts')} AS t (organization_id, brand_id, status, severity, count)
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(organization_id bigint, brand_id bigint, status text, severity text, count bigint)
       ON CONFLICT (organization_id, brand_id, status, severity) DO UPDATE SET count = t.count + EXCLUDED.count`,
      [JSON.stringify(rows)],
    );
  },
};
