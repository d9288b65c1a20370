import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { until } from './until';

/** A Redis Cluster of redis-server processes on loopback ports (DESIGN §18's test bed). */
export interface LocalRedisCluster {
  /** Every node, masters first (as created). */
  readonly nodes: { port: number; process: ChildProcess }[];
  /** `127.0.0.1:port` of every node: REDIS_CLUSTER_NODES. */
  readonly seeds: string;
  /** The port of the master serving a key's slot now. */
  masterOf(key: string): Promise<number>;
  /** Ports of the nodes that are masters now. */
  masters(): Promise<number[]>;
  /** SIGKILLs a node's process. */
  kill(port: number): void;
  /** Waits until every living node says cluster_state:ok and every slot has a living master. */
  healthy(ms?: number): Promise<void>;
  stop(): Promise<void>;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** `count` consecutive free ports whose cluster bus ports (port + 10000) are free too. */
export async function freePorts(count: number, busPorts = false): Promise<number[]> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 9_000);
    const ports = Array.from({ length: count }, (_, i) => base + i);
    let ok = true;
    for (const p of ports) if (!(await portFree(p)) || (busPorts && !(await portFree(p + 10_000)))) ok = false;
    if (ok) return ports;
  }
  throw new Error('no free loopback ports');
}

async function ask(port: number, ...args: string[]): Promise<string> {
  const r = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000 });
  r.on('error', () => undefined);
  try {
    await r.connect();
    return String(await r.call(args[0], ...args.slice(1)));
  } finally {
    r.disconnect();
  }
}

/**
 * Starts `masters` masters and `replicasPerMaster` replicas each from Debian's redis-server, joins
 * them with `redis-cli --cluster create`, and waits until the cluster is ok. A short
 * cluster-node-timeout (1 s) makes a replica take over a killed master within a few seconds.
 */
export async function startRedisCluster(masters = 3, replicasPerMaster = 0): Promise<LocalRedisCluster> {
  const total = masters * (1 + replicasPerMaster);
  const ports = await freePorts(total, true);
  const dir = mkdtempSync(join(tmpdir(), 'aov-redis-cluster-'));
  const nodes = ports.map((port) => {
    const process = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', join(dir, `nodes-${port}.conf`),
        '--cluster-node-timeout', '1000', '--dir', dir, '--save', '', '--appendonly', 'no', '--protected-mode', 'no', '--loglevel', 'warning'],
      { stdio: 'ignore' },
    );
    return { port, process };
  });
  const living = () => nodes.filter((n) => n.process.exitCode === null && n.process.signalCode === null);
  const stop = async () => {
    for (const n of living()) n.process.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 100));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const { port } of nodes) await until(async () => (await ask(port, 'PING').catch(() => '')) === 'PONG', 10_000, `redis-server on ${port}`);
    const created = spawnSync('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', String(replicasPerMaster), '--cluster-yes'], { encoding: 'utf8' });
    if (created.status !== 0) throw new Error(`redis-cli --cluster create: ${created.stdout}${created.stderr}`);
    const cluster: LocalRedisCluster = {
      nodes,
      seeds: ports.map((p) => `127.0.0.1:${p}`).join(','),
      async masterOf(key) {
        const slot = Number(await ask(living()[0].port, 'CLUSTER', 'KEYSLOT', key));
        for (const { port } of living()) {
          const r = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
          r.on('error', () => undefined);
          try {
            await r.connect();
            const shards = (await r.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
            const owner = shards.find(([from, to]) => slot >= from && slot <= to);
            if (owner) return owner[2][1];
          } catch {
            /* next node */
          } finally {
            r.disconnect();
          }
        }
        throw new Error(`no master for ${key}`);
      },
      async masters() {
        const ports: number[] = [];
        for (const { port } of living()) if (/role:master/.test(await ask(port, 'INFO', 'replication').catch(() => ''))) ports.push(port);
        return ports;
      },
      kill(port) {
        nodes.find((n) => n.port === port)?.process.kill('SIGKILL');
      },
      async healthy(ms = 30_000) {
        await until(async () => {
          for (const { port } of living()) if (!/cluster_state:ok/.test(await ask(port, 'CLUSTER', 'INFO').catch(() => ''))) return false;
          return true;
        }, ms, 'the Redis Cluster to be ok');
      },
      stop,
    };
    await cluster.healthy();
    return cluster;
  } catch (error) {
    await stop();
    throw error;
  }
}
