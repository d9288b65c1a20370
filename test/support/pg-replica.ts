import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePorts } from './redis-cluster';
import { until } from './until';

const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** A PostgreSQL primary and a streaming replica (pg_basebackup -R) from Debian's packages, on loopback ports. */
export interface LocalPostgresPair {
  readonly primaryUrl: (db: string) => string;
  readonly replicaUrl: (db: string) => string;
  /** Waits until the replica has replayed everything the primary has written so far. */
  caughtUp(ms?: number): Promise<void>;
  stop(): Promise<void>;
}

/** The account to run PostgreSQL as: ourselves, or `postgres` when we are root (PostgreSQL refuses root). */
function account(): { uid: number; gid: number } | null {
  if (userInfo().uid !== 0) return null;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

function run(command: string, args: string[], as: { uid: number; gid: number } | null): void {
  const r = spawnSync(join(BIN, command), args, { encoding: 'utf8', ...(as ?? {}) });
  if (r.status !== 0) throw new Error(`${command}: ${r.stdout}${r.stderr}${r.error?.message ?? ''}`);
}

export async function startPostgresPair(): Promise<LocalPostgresPair> {
  const as = account();
  const dir = mkdtempSync(join(tmpdir(), 'aov-pg-pair-'));
  if (as) chownSync(dir, as.uid, as.gid);
  const [primaryPort, replicaPort] = await freePorts(2);
  const children: ChildProcess[] = [];
  const server = (data: string, port: number) => {
    const child = spawn(join(BIN, 'postgres'), ['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${dir}`,
      '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300', '-c', 'shared_buffers=64MB'], { stdio: 'ignore', ...(as ?? {}) });
    children.push(child);
  };
  const url = (port: number) => (db: string) => `postgres://postgres@127.0.0.1:${port}/${db}`;
  const stop = async () => {
    for (const c of children) c.kill('SIGINT');
    await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once('exit', r)) : null)));
    rmSync(dir, { recursive: true, force: true });
  };
  const answers = (port: number) => async () => {
    const c = new Client({ connectionString: url(port)('postgres'), connectionTimeoutMillis: 1000 });
    c.on('error', () => undefined);
    try {
      await c.connect();
      return true;
    } catch {
      return false;
    } finally {
      await c.end().catch(() => undefined);
    }
  };
  try {
    run('initdb', ['-D', join(dir, 'primary'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'], as);
    server(join(dir, 'primary'), primaryPort);
    await until(answers(primaryPort), 30_000, 'the primary');
    run('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', join(dir, 'replica'), '-R', '-X', 'stream', '--no-sync'], as);
    server(join(dir, 'replica'), replicaPort);
    await until(answers(replicaPort), 30_000, 'the replica');
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    primaryUrl: url(primaryPort),
    replicaUrl: url(replicaPort),
    async caughtUp(ms = 30_000) {
      const p = new Client({ connectionString: url(primaryPort)('postgres') });
      const r = new Client({ connectionString: url(replicaPort)('postgres') });
      await p.connect();
      await r.connect();
      try {
        const target = (await p.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0].lsn;
        await until(async () => (await r.query<{ ok: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok', [target])).rows[0].ok, ms, 'the replica to replay the primary');
      } finally {
        await p.end();
        await r.end();
      }
    },
    stop,
  };
}
