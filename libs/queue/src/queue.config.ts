import { defineConfigSection, parseRedisClusterNodes, type ConfigOf } from '@libs/config';

/**
 * Where BullMQ keeps its queues: the Redis (by default the service's) and the key prefix (by
 * default `<REDIS_PREFIX>:bull`, so a deployment's queues live under its prefix and tests, which
 * set their own REDIS_PREFIX, never share a queue).
 */
export const QUEUE_CONFIG = defineConfigSection(
  'queue',
  [
    { name: 'QUEUE_REDIS_URL', default: '(none)', description: 'Redis of the BullMQ queues, when not REDIS_URL (e.g. a noeviction instance apart from the caches)' },
    { name: 'QUEUE_PREFIX', default: '(none)', description: 'Key prefix of every BullMQ queue; by default `<REDIS_PREFIX>:bull`' },
  ],
  (r) => {
    const url = r.optional('QUEUE_REDIS_URL');
    if (url !== null) r.url('QUEUE_REDIS_URL', ['redis:', 'rediss:']);
    const prefix = r.optional('QUEUE_PREFIX') ?? `${r.raw('REDIS_PREFIX')}:bull`;
    if (!/^[A-Za-z0-9_.:-]{1,80}$/.test(prefix)) r.problem('QUEUE_PREFIX', `"${prefix}" must be 1-80 letters, digits, '_', '.', ':' or '-'`);
    return {
      /** Redis of the queues (QUEUE_REDIS_URL, else REDIS_URL). */
      redisUrl: url ?? r.raw('REDIS_URL'),
      /** The Redis Cluster of the queues (REDIS_CLUSTER_NODES), unless QUEUE_REDIS_URL names a server of their own. */
      redisClusterNodes: url === null ? parseRedisClusterNodes(r.optional('REDIS_CLUSTER_NODES'), []) : null,
      /** BullMQ's key prefix: every key of a queue starts with `<prefix>:<queue name>:`. */
      prefix,
    };
  },
);
export type QueueConfig = ConfigOf<typeof QUEUE_CONFIG>;
