import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { StartupError } from '@libs/observability';
import { findOnPath, freePort, isAlive, readPrivateJson, tailOf, waitUntil, writePrivateJson } from './process-tools';
import type { ServerControl } from './shared-server';

/** The one line printed when there is no Redis to use nor to start: why none was used, and how to get one. */
export const noRedis = (why: string): string =>
  `REDIS_URL: ${why}, and there is no redis-server on the PATH: install Redis (Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis) or set REDIS_URL to a Redis server`;

interface RedisState {
  pid: number;
  port: number;
  password: string;
}

/**
 * A redis-server from the PATH for this checkout's processes: 127.0.0.1 only, a random password,
 * nothing written to disk (no RDB, no AOF), its address in `<DATA_DIR>/redis.json` (readable by its
 * owner only) for the CLI to find, its log in `<DATA_DIR>/redis.log`.
 */
export class LocalRedis implements ServerControl {
  readonly ownerFile: string;
  private readonly stateFile: string;
  private readonly logFile: string;
  version = '';

  /** `why` says why the service starts its own, for the line printed when it cannot. */
  constructor(
    private readonly dataDir: string,
    private readonly why: string,
  ) {
    this.ownerFile = join(dataDir, 'redis.owner');
    this.stateFile = join(dataDir, 'redis.json');
    this.logFile = join(dataDir, 'redis.log');
  }

  url(): string {
    const s = this.state()!;
    return `redis://:${s.password}@127.0.0.1:${s.port}`;
  }

  async running(): Promise<number | null> {
    const s = this.state();
    if (!s || !isAlive(s.pid) || !(await this.answers(s))) return null;
    return s.pid;
  }

  async start(): Promise<number> {
    const binary = findOnPath('redis-server');
    if (!binary) throw new StartupError(noRedis(this.why));
    mkdirSync(this.dataDir, { recursive: true });
    const state = { pid: 0, port: await freePort(this.state()?.port), password: randomBytes(24).toString('hex') };
    const log = openSync(this.logFile, 'a', 0o600);
    // The password goes in through standard input (a config read from "-"), not the command line `ps` shows.
    const args = ['-', '--port', String(state.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', this.dataDir, '--daemonize', 'no'];
    const child = spawn(binary, args, { detached: true, windowsHide: true, stdio: ['pipe', log, log] });
    closeSync(log);
    child.stdin!.end(`requirepass ${state.password}\n`);
    let exited: string | null = null;
    child.once('exit', (code, signal) => (exited = `exited with ${signal ?? code}`));
    child.once('error', (error) => (exited = error.message));
    child.unref();
    state.pid = child.pid ?? 0;
    await waitUntil(async () => exited !== null || (await this.answers(state)), 30_000, 'redis-server to answer').catch((error: Error) => {
      exited ??= error.message;
    });
    if (exited !== null) {
      if (state.pid && isAlive(state.pid)) child.kill('SIGTERM');
      throw new StartupError(`REDIS_URL: the redis-server started on 127.0.0.1:${state.port} did not answer (${exited}): ${tailOf(this.logFile)}`);
    }
    writePrivateJson(this.stateFile, state);
    return state.pid;
  }

  async otherClients(): Promise<number> {
    const s = this.state();
    if (!s) return 0;
    return this.command(s, async (r) => String(await r.client('LIST')).trim().split('\n').filter(Boolean).length - 1);
  }

  /** SIGTERM: with nothing to save, redis-server closes its clients and exits. */
  async stop(pid: number): Promise<void> {
    this.kill(pid);
    await waitUntil(() => !isAlive(pid), 30_000, 'redis-server to stop');
    rmSync(this.stateFile, { force: true });
  }

  kill(pid: number): void {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }

  private state(): RedisState | null {
    return readPrivateJson<RedisState>(this.stateFile);
  }

  private async answers(s: RedisState): Promise<boolean> {
    return this.command(s, async (r) => {
      this.version = String(/redis_version:(\S+)/.exec(await r.info('server'))?.[1] ?? '');
      return (await r.ping()) === 'PONG';
    }).catch(() => false);
  }

  private async command<T>(s: RedisState, fn: (r: Redis) => Promise<T>): Promise<T> {
    const r = new Redis({ host: '127.0.0.1', port: s.port, password: s.password, lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
    r.on('error', () => undefined);
    try {
      await r.connect();
      return await fn(r);
    } finally {
      r.disconnect();
    }
  }
}
