import { Cluster, Redis, type RedisOptions } from 'ioredis';

/** Where the service's Redis is: one server (REDIS_URL) or a Redis Cluster's seed nodes (REDIS_CLUSTER_NODES). */
export interface RedisTarget {
  readonly redisUrl: string;
  readonly redisClusterNodes?: readonly string[] | null;
}

/** Connection options honoured for one server and for a cluster (each node's connection gets them). */
export type RedisConnectionOptions = Omit<RedisOptions, 'host' | 'port' | 'path' | 'sentinels' | 'readOnly'>;

/**
 * A Redis connection to the target: an ioredis client for one server, or an ioredis Cluster
 * (which follows MOVED/ASK redirections, refreshes its slot map and fails over to a promoted
 * replica by itself) for REDIS_CLUSTER_NODES. The cluster client is returned under the `Redis`
 * type: both speak the same commands, and every key the service uses is built so that the keys of
 * one script, MULTI or pipeline share a hash tag (`{…}`), the condition the cluster puts on them.
 */
export function connectRedis(target: RedisTarget, options: RedisConnectionOptions = {}): Redis {
  const nodes = target.redisClusterNodes;
  if (!nodes?.length) return new Redis(target.redisUrl, options as RedisOptions);
  return new Cluster(nodes.map(clusterNode), clusterOptions(nodes, options)) as unknown as Redis;
}

/** Whether a connection is a cluster client. */
export function isCluster(connection: Redis): boolean {
  return (connection as unknown as { isCluster?: boolean }).isCluster === true;
}

function clusterNode(url: string): { host: string; port: number } {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port) };
}

function clusterOptions(nodes: readonly string[], options: RedisConnectionOptions) {
  const { retryStrategy, enableOfflineQueue, lazyConnect, enableAutoPipelining, enableReadyCheck, ...redisOptions } = options as RedisOptions;
  const first = new URL(nodes[0]);
  return {
    // The first node's credentials and TLS are every node's (a cluster shares its ACL).
    redisOptions: {
      ...redisOptions,
      ...(first.username && { username: decodeURIComponent(first.username) }),
      ...(first.password && { password: decodeURIComponent(first.password) }),
      ...(first.protocol === 'rediss:' && { tls: {} }),
    },
    ...(retryStrategy !== undefined && { clusterRetryStrategy: retryStrategy }),
    ...(enableOfflineQueue !== undefined && { enableOfflineQueue }),
    ...(lazyConnect !== undefined && { lazyConnect }),
    ...(enableAutoPipelining !== undefined && { enableAutoPipelining }),
    ...(enableReadyCheck !== undefined && { enableReadyCheck }),
    // A master that dies is replaced by its replica after cluster-node-timeout: keep retrying meanwhile.
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 300,
    slotsRefreshTimeout: 2000,
  };
}
