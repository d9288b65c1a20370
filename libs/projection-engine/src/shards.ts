import type { RecordedEvent } from '@libs/event-store';

/**
 * Shards of the projections (DESIGN §18): shard = hash(organisation id) mod S. One shard (the
 * default) is today's single owner per projector group, with the checkpoints' names unchanged.
 */
export interface ShardSpec {
  /** 0 … count - 1. */
  readonly index: number;
  readonly count: number;
}

export const SINGLE_SHARD: ShardSpec = { index: 0, count: 1 };

/** FNV-1a (32 bits) of the organisation id's decimal form: stable across processes, languages and restarts. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The shard of an organisation; an event without one (none in the service's feed today) belongs to shard 0. */
export function shardOf(organizationId: number | string | null | undefined, count: number): number {
  if (count <= 1 || organizationId === null || organizationId === undefined || organizationId === '') return 0;
  return fnv1a(String(organizationId)) % count;
}

export function eventShard(event: Pick<RecordedEvent, 'metadata'>, count: number): number {
  return shardOf(event.metadata?.organizationId, count);
}

/** A projector's checkpoint (and runner lock) name in a shard: the plain name with one shard, `name#k/S` with several. */
export function shardCheckpointName(name: string, shard: ShardSpec): string {
  return shard.count <= 1 ? name : `${name}#${shard.index}/${shard.count}`;
}

/** Every checkpoint name of a projector under `count` shards. */
export function checkpointNames(name: string, count: number): string[] {
  return Array.from({ length: Math.max(1, count) }, (_, index) => shardCheckpointName(name, { index, count }));
}

/** The name of a (group, shard) unit: its lock key and the `projection_shard_owners` row. */
export const unitName = (group: string, shard: ShardSpec) => `${group}#${shard.index}/${shard.count}`;
