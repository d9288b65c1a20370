import type { RecordedEvent } from '@libs/event-store';
import { tableShape, type ProjectionContext, type Projector } from '@libs/projection-engine';

/** A type's count and the time its newest event was recorded. */
export const EVENT_TYPE_COUNTS = tableShape<{ type: string; count: number; last_recorded_at: string }>({
  table: 'event_type_counts',
  columns: { type: 'text', count: 'bigint', last_recorded_at: 'timestamptz' },
  key: ['type'],
});

/**
 * `event_type_counts`: how many events of each type the store holds, and when the last one was
 * recorded. An operational read model (and the foundation's proof that projections neither lose
 * nor repeat an event: its total always equals the store's count).
 */
export const eventTypeCountsProjector: Projector = {
  name: 'event_type_counts',
  handles: 'all',
  tables: [EVENT_TYPE_COUNTS.table],
  async apply(events: readonly RecordedEvent[], { query, table }: ProjectionContext): Promise<void> {
    const counts = new Map<string, { n: number; last: Date }>();
    for (const e of events) {
      const c = counts.get(e.type);
      if (c) {
        c.n += 1;
        if (e.recordedAt > c.last) c.last = e.recordedAt;
      } else counts.set(e.type, { n: 1, last: e.recordedAt });
    }
    const types = [...counts.keys()];
    await query(
      `INSERT INTO ${table(EVENT_TYPE_COUNTS.table)} AS t (type, count, last_recorded_at)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::timestamptz[])
       ON CONFLICT (type) DO UPDATE SET count = t.count + EXCLUDED.count,
         last_recorded_at = GREATEST(t.last_recorded_at, EXCLUDED.last_recorded_at)`,
      [types, types.map((t) => counts.get(t)!.n), types.map((t) => counts.get(t)!.last)],
    );
  },
};
