import type { DataSource } from 'typeorm';
import { formatPosition, type EventStore, type FeedPosition } from '@libs/event-store';
import { LOCK_NAMESPACE } from './advisory-locks';
import { checkpoints } from './checkpoint-store';
import type { Projector } from './projector';
import { checkpointNames } from './shards';

export interface ProjectionStatus {
  /** The projector's name, or its shard's checkpoint (`name#k/S`) when the projections run in several shards. */
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

/** Each projection's checkpoint, one per shard under `shards` (PROJECTION_SHARDS). */
export async function projectionStatus(dataSource: DataSource, store: CountingStore, projectors: readonly Projector[], shards = 1): Promise<ProjectionStatus[]> {
  const rows = new Map((await checkpoints.all(dataSource.manager)).map((r) => [r.name, r]));
  const result: ProjectionStatus[] = [];
  for (const name of projectors.flatMap((p) => checkpointNames(p.name, shards))) {
    const row = rows.get(name);
    const position = row?.position ?? { commit: 0n, prepare: 0n };
    result.push({
      name,
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

/** A (projector group, shard) unit and the worker holding it. */
export interface ShardOwnership {
  group: string;
  shard: number;
  shardCount: number;
  /** The worker that took it last (null after a clean stop). */
  owner: string | null;
  /** When that worker took it. */
  since: string | null;
  /** Its unit lock is held now (a worker that died leaves its row until another takes the unit). */
  live: boolean;
}

/** Who holds each unit (`projection_shard_owners`, with the lock's liveness from `pg_locks`), by group and shard. */
export async function shardOwnership(dataSource: Pick<DataSource, 'query'>): Promise<ShardOwnership[]> {
  const rows: { group_name: string; shard: number; shard_count: number; owner: string | null; since: Date | null; live: boolean }[] = await dataSource.query(
    `SELECT o.group_name, o.shard, o.shard_count, o.owner, o.since,
            EXISTS (SELECT 1 FROM pg_locks l JOIN pg_database d ON d.oid = l.database AND d.datname = current_database()
                     WHERE l.locktype = 'advisory' AND l.classid = $1 AND l.objsubid = 2 AND l.granted
                       AND l.objid::bigint = (hashtext(o.group_name || '#' || o.shard || '/' || o.shard_count)::bigint & 4294967295)) AS live
       FROM projection_shard_owners o ORDER BY o.group_name, o.shard`,
    [LOCK_NAMESPACE.unit],
  );
  return rows.map((r) => ({ group: r.group_name, shard: r.shard, shardCount: r.shard_count, owner: r.owner, since: r.since?.toISOString() ?? null, live: r.live }));
}
