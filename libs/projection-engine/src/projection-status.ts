import type { DataSource } from 'typeorm';
import { formatPosition, type EventStore, type FeedPosition } from '@libs/event-store';
import { checkpoints } from './checkpoint-store';
import type { Projector } from './projector';

export interface ProjectionStatus {
  name: string;
  position: string;
  eventsApplied: number;
  /** Readable events in the feed after the checkpoint (null when the store cannot count). */
  lag: number | null;
  owner: string | null;
  updatedAt: string | null;
  rebuiltAt: string | null;
}

type CountingStore = EventStore & { countEventsAfter?: (p: FeedPosition, cap?: number) => Promise<number> };

export async function projectionStatus(dataSource: DataSource, store: CountingStore, projectors: readonly Projector[]): Promise<ProjectionStatus[]> {
  const rows = new Map((await checkpoints.all(dataSource.manager)).map((r) => [r.name, r]));
  const result: ProjectionStatus[] = [];
  for (const p of projectors) {
    const row = rows.get(p.name);
    const position = row?.position ?? { commit: 0n, prepare: 0n };
    result.push({
      name: p.name,
      position: formatPosition(position),
      eventsApplied: row?.eventsApplied ?? 0,
      lag: store.countEventsAfter ? await store.countEventsAfter(position) : null,
      owner: row?.owner ?? null,
      updatedAt: row?.updatedAt?.toISOString() ?? null,
      rebuiltAt: row?.rebuiltAt?.toISOString() ?? null,
    });
  }
  return result;
}
