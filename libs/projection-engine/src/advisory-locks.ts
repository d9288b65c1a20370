/**
 * Advisory lock namespaces (the first key of PostgreSQL's two-key advisory locks); the second
 * key is hashtext(name).
 */
export const LOCK_NAMESPACE = {
  /** Held (session level) by the one process running a projector's checkpoint (`name`, or `name#k/S` in a shard) live. */
  runner: 4242,
  /** Shared by each live batch transaction, exclusive during a rebuild's swap (per checkpoint name). */
  swap: 4243,
  /** Held by the one process rebuilding a projector. */
  rebuild: 4244,
  /** Held (session level) by the owner of a (group, shard) unit, key hashtext(`group#k/S`): what `projections shards` reads as live. */
  unit: 4245,
  /** Held by each live worker process on its presence connection, key hashtext(owner): the workers counted for the fair share. */
  worker: 4246,
  /** Taken in the transaction that creates a projector's shard checkpoints (key hashtext(projector name)). */
  shardSetup: 4247,
} as const;
