import type { EntityManager } from 'typeorm';
import { LOCK_NAMESPACE } from './advisory-locks';
import { shardCheckpointName, shardOf } from './shards';

/**
 * Holds, until the transaction of `manager` ends, the projector's swap lock of the shard the
 * organisation belongs to, exclusively: the lock each live batch of that (projector, shard) takes
 * shared when its transaction begins, and a rebuild's swap takes exclusively. So it waits for the
 * batch in progress to commit, and the shard's next batch waits for this transaction: whatever it
 * reads and writes of the organisation's rows of the projector is consistent with the checkpoint
 * (no event applied half before, half after). Other shards, and other projectors, go on.
 */
export async function lockProjectorShard(manager: EntityManager, projector: string, organizationId: number, shards: number): Promise<string> {
  const checkpoint = shardCheckpointName(projector, { index: shardOf(organizationId, shards), count: Math.max(1, shards) });
  await manager.query(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [LOCK_NAMESPACE.swap, checkpoint]);
  return checkpoint;
}
