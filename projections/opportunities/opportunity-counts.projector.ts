import type { RecordedEvent } from '@libs/event-store';
import { asOpportunityEvent, isTerminal, type Status } from '@libs/opportunities';
import { CounterDeltas, tableShape, upsertRows, type ProjectionContext, type Projector } from '@libs/projection-engine';
import { brandOwners } from '@libs/tenancy';

/** What the projector keeps of each opportunity (its own table: it depends on no other projection). */
interface MemberRow {
  id: number;
  organization_id: number;
  client_id: number | null;
  brand_id: number;
  severity: string;
  status: Status;
  /** When the SLA falls due (ISO 8601, UTC). */
  due_at: string;
}

export const OPPORTUNITY_COUNT_MEMBERS = tableShape<MemberRow>({
  table: 'opportunity_count_members',
  columns: { id: 'bigint', organization_id: 'bigint', client_id: 'bigint', brand_id: 'bigint', severity: 'text', status: 'text', due_at: 'timestamptz' },
  key: ['id'],
});

export const OPPORTUNITY_COUNTS = tableShape<{ organization_id: number; client_id: number | null; brand_id: number; status: string; severity: string; count: number }>({
  table: 'opportunity_counts',
  columns: { organization_id: 'bigint', client_id: 'bigint', brand_id: 'bigint', status: 'text', severity: 'text', count: 'bigint' },
  key: ['organization_id', 'brand_id', 'status', 'severity'],
});

export const OPPORTUNITY_DUE_BUCKETS = tableShape<{ organization_id: number; client_id: number | null; span: string; bucket_start: string; brand_id: number; count: number }>({
  table: 'opportunity_due_buckets',
  columns: { organization_id: 'bigint', client_id: 'bigint', span: 'text', bucket_start: 'timestamptz', brand_id: 'bigint', count: 'bigint' },
  key: ['organization_id', 'span', 'bucket_start', 'brand_id'],
});

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

const idOf = (e: RecordedEvent) => Number(e.streamId.slice('opportunity-'.length));

/**
 * `opportunity_counts`: how many opportunities each brand has, by status and severity (the KPI
 * summary), and `opportunity_due_buckets`: open opportunities by the UTC month, day, hour and
 * ten minutes they fall due (so the SLA breach total is a sum of a few dozen rows plus the current
 * ten minutes' rows past due). It keeps the facts it needs (brand and its client, severity,
 * current status, due time) in its own `opportunity_count_members` table, so it depends on no
 * other projection. Every row carries organisation, client and brand ids.
 */
export const opportunityCountsProjector: Projector = {
  name: 'opportunity_counts',
  handles: ['opportunity.detected', 'opportunity.transitioned'],
  tables: [OPPORTUNITY_COUNTS.table, OPPORTUNITY_COUNT_MEMBERS.table, OPPORTUNITY_DUE_BUCKETS.table],
  async apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void> {
    const { query, table } = context;
    const ids = [...new Set(events.map(idOf))];
    const found: (Omit<MemberRow, 'due_at'> & { due_at: Date })[] = await query(
      `SELECT id, organization_id, client_id, brand_id, severity, status, due_at FROM ${table(OPPORTUNITY_COUNT_MEMBERS.table)} WHERE id = ANY($1::bigint[])`,
      [ids],
    );
    const known = new Map<number, MemberRow>(
      found.map((m) => [
        Number(m.id),
        { ...m, id: Number(m.id), organization_id: Number(m.organization_id), client_id: m.client_id === null ? null : Number(m.client_id), brand_id: Number(m.brand_id), due_at: m.due_at.toISOString() },
      ]),
    );
    const typed = events.map((e) => ({ id: idOf(e), event: asOpportunityEvent(e) }));
    const owners = await brandOwners(query, typed.flatMap(({ id, event }) => (event.type === 'opportunity.detected' && !known.has(id) ? [event.data.brandId] : [])));

    const changed = new Set<number>();
    const countDeltas = new CounterDeltas(OPPORTUNITY_COUNTS, ['count']);
    const dueDeltas = new CounterDeltas(OPPORTUNITY_DUE_BUCKETS, ['count']);
    const bump = (m: MemberRow, status: Status, by: number) =>
      countDeltas.add({ organization_id: m.organization_id, client_id: m.client_id, brand_id: m.brand_id, status, severity: m.severity }, { count: by });
    const bumpDue = (m: MemberRow, by: number) => {
      for (const [span, start] of dueBuckets(m.due_at)) {
        dueDeltas.add({ organization_id: m.organization_id, client_id: m.client_id, span, bucket_start: start, brand_id: m.brand_id }, { count: by });
      }
    };
    for (const { id, event } of typed) {
      if (event.type === 'opportunity.detected') {
        if (known.has(id)) continue; // already counted
        const d = event.data;
        const m: MemberRow = {
          id, organization_id: d.organizationId, client_id: owners.get(d.brandId)?.clientId ?? null, brand_id: d.brandId,
          severity: d.severity, status: 'detected', due_at: new Date(d.dueAt).toISOString(),
        };
        known.set(id, m);
        bump(m, 'detected', 1);
        bumpDue(m, 1);
      } else if (event.type === 'opportunity.transitioned') {
        const m = known.get(id);
        if (!m || m.status !== event.data.from) continue; // unknown or already applied
        bump(m, m.status, -1);
        const wasOpen = !isTerminal(m.status);
        m.status = event.data.to;
        bump(m, m.status, 1);
        if (wasOpen && isTerminal(m.status)) bumpDue(m, -1);
      } else continue;
      changed.add(id);
    }
    if (!changed.size) return;
    await upsertRows(context, OPPORTUNITY_COUNT_MEMBERS, [...changed].map((id) => known.get(id)!), { kind: 'replace', columns: ['status'] });
    await dueDeltas.flush(context);
    await countDeltas.flush(context);
  },
};
