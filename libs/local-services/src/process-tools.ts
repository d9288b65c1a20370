import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, dirname, join, parse } from 'node:path';

/** A port free on 127.0.0.1: `preferred` when it is, otherwise one the system picks. */
export async function freePort(preferred?: number): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number | null>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(null));
      server.listen(port, '127.0.0.1', () => {
        const { port: bound } = server.address() as { port: number };
        server.close(() => resolve(bound));
      });
    });
  if (preferred) {
    const port = await tryPort(preferred);
    if (port !== null) return port;
  }
  const port = await tryPort(0);
  if (port === null) throw new Error('no free port on 127.0.0.1');
  return port;
}

/** Whether a process with this id exists (one of another user counts). */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Polls `condition` until it holds, or throws naming `what` after `timeoutMs`. */
export async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface Account {
  name: string;
  uid: number;
  gid: number;
}

/** The account's ids (`id -u`/`id -g`), or null when there is no such account. */
export function accountOf(name: string): Account | null {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { name, uid, gid } : null;
  } catch {
    return null;
  }
}

export const runningAsRoot = (): boolean => process.getuid?.() === 0;

/**
 * The first directory on the way to `path` that `account` may not enter (no search permission for
 * it), or null when every one is open to it. Root reaches anything; this is for the account root
 * hands a server to.
 */
export function closedTo(path: string, account: Account): string | null {
  let dir = path;
  const dirs: string[] = [];
  while (dir !== parse(dir).root) {
    dirs.unshift(dir);
    dir = dirname(dir);
  }
  for (const d of dirs) {
    let s;
    try {
      s = statSync(d);
    } catch {
      return null; // not made yet: its parent was open, and we make it for the account
    }
    if (!s.isDirectory()) continue;
    const bit = s.uid === account.uid ? 0o100 : s.gid === account.gid ? 0o010 : 0o001;
    if ((s.mode & bit) === 0) return d;
  }
  return null;
}

/** The full path of an executable on the PATH, or null. */
export function findOnPath(name: string, path = process.env.PATH ?? ''): string | null {
  const names = process.platform === 'win32' ? [`${name}.exe`, `${name}.cmd`, name] : [name];
  for (const dir of path.split(delimiter).filter(Boolean)) {
    for (const n of names) {
      const candidate = join(dir, n);
      try {
        accessSync(candidate, constants.X_OK);
        if (statSync(candidate).isFile()) return candidate;
      } catch {
        // not here
      }
    }
  }
  return null;
}

/** A JSON file readable by its owner only (a password in it), or null when absent or unreadable. */
export function readPrivateJson<T>(file: string): T | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

export function writePrivateJson(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(value, null, 2) + '\n', { mode: 0o600 });
  renameSync(temporary, file);
}

/** The last `lines` lines of a log file, for an error message. */
export function tailOf(file: string, lines = 5): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join(' | ');
  } catch {
    return '';
  }
}
