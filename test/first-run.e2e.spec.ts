import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ROOT } from './support/processes';
import { until } from './support/until';
import { ADMIN_URL } from './support/test-database';

/**
 * The README's first run on a machine with only Node: `npm start` with no DATABASE_URL while no
 * database answers at the address it tries brings its own PostgreSQL (embedded, data in DATA_DIR)
 * and Redis (redis-server from the PATH), migrates, seeds the demo and serves; a restart finds the
 * same data; Ctrl+C leaves no process behind. Where `unshare -n` works (root, as in CI) the service
 * runs in a network namespace of its own, where nothing answers at 127.0.0.1:5432 or :6379, as on a
 * new laptop; elsewhere LOCAL_SERVICES=always makes it start its own without trying the defaults.
 */
const isolated = spawnSync('unshare', ['-n', 'true']).status === 0 && spawnSync('ip', ['-V']).status === 0;
let dataDir: string;
const started: ChildProcess[] = [];

interface Run {
  child: ChildProcess;
  output: () => string;
  /** Runs a shell command where the service is (its network namespace, if it has one). */
  shell: (command: string) => string;
}

/** What a newcomer's shell has: no DATABASE_URL, REDIS_URL or REDIS_PREFIX; the data folder of this test. */
function newcomerEnv(port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', LOCAL_SERVICES: isolated ? 'auto' : 'always', npm_config_update_notifier: 'false' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.REDIS_PREFIX;
  return env;
}

/** Starts `npm start` as a newcomer would; `inNetworkOf`: in the network namespace of that process (to find what a killed run left). */
function startService(port: number, inNetworkOf?: number): Run {
  const env = newcomerEnv(port);
  const [command, args] = !isolated ? ['npm', ['start']] : inNetworkOf ? ['nsenter', [`--net=/proc/${inNetworkOf}/ns/net`, 'npm', 'start']] : ['unshare', ['-n', '--', 'sh', '-c', 'ip link set lo up && exec npm start']];
  // Its own process group, as a terminal runs a command: Ctrl+C is SIGINT to the whole group.
  const child = spawn(command, args, { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const shell = (cmd: string) => {
    const options = { cwd: ROOT, env, encoding: 'utf8' as const, timeout: 300_000 };
    const r = isolated ? spawnSync('nsenter', [`--net=/proc/${child.pid}/ns/net`, 'sh', '-c', cmd], options) : spawnSync('sh', ['-c', cmd], options);
    if (r.status !== 0) throw new Error(`${cmd} exited ${r.status}: ${r.stderr}`);
    return r.stdout;
  };
  return { child, output: () => out, shell };
}

const ctrlC = (run: Run) => process.kill(-run.child.pid!, 'SIGINT');

/**
 * How the run ended: `npm start` exits as a terminal shows it after Ctrl+C (npm passes SIGINT on,
 * waits for the service, then ends itself by the same signal); 'clean' when nothing after the
 * banner reports an error.
 */
async function ended(run: Run): Promise<string> {
  const { child } = run;
  if (child.exitCode === null && child.signalCode === null) await new Promise((resolve) => child.once('exit', resolve));
  const after = run.output().slice(run.output().indexOf('stop:'));
  const how = child.exitCode === 0 || child.signalCode === 'SIGINT' ? 'clean' : `exit ${child.exitCode ?? child.signalCode}`;
  return /error|fatal|took longer/i.test(after) ? `${how}, but: ${after}` : how;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Every process whose command line names the data folder (the embedded PostgreSQL and its children, redis-server's --dir). */
function processesUsing(dir: string): string[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .map((p) => {
      try {
        return `${p} ${readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ')}`;
      } catch {
        return '';
      }
    })
    .filter((line) => line.includes(dir));
}

const postmaster = () => readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n');
const uidOf = (pid: number) => Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'first-run-'));
});
afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  const redis = existsSync(join(dataDir, 'redis.json')) ? (JSON.parse(readFileSync(join(dataDir, 'redis.json'), 'utf8')) as { pid: number }).pid : 0;
  for (const pid of [Number(existsSync(join(dataDir, 'postgres', 'postmaster.pid')) ? postmaster()[0] : 0), redis]) if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('first run with only Node (embedded PostgreSQL, own Redis)', () => {
  it('migrates, seeds, answers the banner’s curl, shares its servers with the CLI, restarts on the same data, takes over servers a killed run left, and stops leaving no process behind', async () => {
    const port = await freePort();

    // First run: a new data folder.
    const first = startService(port);
    await until(() => first.output().includes('stop:') || first.child.exitCode !== null, 420_000, 'the first banner');
    const banner1 = first.output();
    expect(banner1).toContain(`AI visibility service: http://127.0.0.1:${port}`);
    // The dashboard built from the runtime build npm start runs (its sources found from there).
    expect(banner1).toMatch(new RegExp(`dashboard: +http://127\\.0\\.0\\.1:${port}/app `));
    expect(banner1).toMatch(/database: +embedded PostgreSQL 18\.\d+ in \S+\/postgres \(initialised and started\), postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:(\d+)\/ai_visibility \(database created\), [1-9]\d* migration\(s\) applied/);
    expect(banner1).toMatch(/redis: +redis-server \S+ on 127\.0\.0\.1:\d+ \(started; nothing kept on disk\)/);
    if (isolated) expect(banner1).toMatch(/nothing answers at 127\.0\.0\.1:5432 \(ECONNREFUSED\): starting the embedded PostgreSQL/);
    expect(banner1).toMatch(/demo: +organisation \d+ "Demo Agency"/);
    const pgPort = /127\.0\.0\.1:(\d+)\/ai_visibility/.exec(banner1)![1];

    // PostgreSQL runs as an unprivileged account when the service runs as root.
    const [pgPid] = postmaster().map(Number);
    if (process.getuid?.() === 0) expect(uidOf(pgPid)).not.toBe(0);
    const redisPid = (JSON.parse(readFileSync(join(dataDir, 'redis.json'), 'utf8')) as { pid: number }).pid;
    expect(alive(pgPid) && alive(redisPid)).toBe(true);

    // The banner's curl, as printed.
    const curl = banner1.split('\n').find((l) => l.trim().startsWith('curl -s -H'))!.trim();
    const key = /X-API-Key: (ak_live_\w+)/.exec(curl)![1];
    const answer = JSON.parse(first.shell(curl)) as { data: { severity: string }[] };
    expect(answer.data.length).toBeGreaterThan(0);
    expect(answer.data.every((o) => o.severity === 'high' || o.severity === 'critical')).toBe(true);

    // Ctrl+C: the service closes, then stops PostgreSQL and Redis; nothing is left.
    ctrlC(first);
    expect(await ended(first)).toBe('clean');
    await until(() => !alive(pgPid) && !alive(redisPid), 30_000, 'PostgreSQL and Redis to stop');
    expect(processesUsing(dataDir)).toEqual([]);
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);

    // Second run: the same data, nothing to migrate or seed, the first run's key still answers.
    const second = startService(port);
    await until(() => second.output().includes('stop:') || second.child.exitCode !== null, 300_000, 'the second banner');
    const banner2 = second.output();
    expect(banner2).toMatch(new RegExp(`database: +embedded PostgreSQL 18\\.\\d+ in \\S+/postgres \\(started\\), postgres://postgres:\\*\\*\\*@127\\.0\\.0\\.1:${pgPort}/ai_visibility, 0 migration\\(s\\) applied`));
    expect(banner2).toContain('the database already has data');
    const again = JSON.parse(second.shell(curl)) as { data: unknown[] };
    expect(again.data.length).toBe(answer.data.length);
    expect(key).toMatch(/^ak_live_/);

    // A CLI command uses the running service's servers, and leaves them running.
    const [pgPid2] = postmaster().map(Number);
    const status = JSON.parse(second.shell('npm run --silent cli -- --json projections status')) as { name: string }[];
    expect(status.map((p) => p.name)).toContain('opportunities');
    expect(postmaster().map(Number)[0]).toBe(pgPid2);
    expect(JSON.parse(second.shell(curl)).data.length).toBe(answer.data.length);

    // The service killed outright (no chance to stop anything) leaves PostgreSQL and Redis running;
    // the next start takes them over, and its Ctrl+C stops them.
    const servicePid = (JSON.parse(readFileSync(join(dataDir, 'postgres.owner'), 'utf8')) as { pid: number }).pid;
    const redisPid2 = (JSON.parse(readFileSync(join(dataDir, 'redis.json'), 'utf8')) as { pid: number }).pid;
    process.kill(servicePid, 'SIGKILL');
    await new Promise((resolve) => (second.child.exitCode !== null || second.child.signalCode !== null ? resolve(null) : second.child.once('exit', resolve)));
    expect(alive(pgPid2) && alive(redisPid2)).toBe(true);
    const third = startService(port, pgPid2);
    await until(() => third.output().includes('stop:') || third.child.exitCode !== null, 300_000, 'the third banner');
    expect(third.output()).toMatch(/database: +embedded PostgreSQL \S+ in \S+ \(left running by a process that ended; stopped by this one\)/);
    expect(third.output()).toMatch(/redis: +redis-server \S+ on 127\.0\.0\.1:\d+ \(left running by a process that ended; stopped by this one;/);
    expect(JSON.parse(third.shell(curl)).data.length).toBe(answer.data.length);
    ctrlC(third);
    expect(await ended(third)).toBe('clean');
    await until(() => !alive(pgPid2) && !alive(redisPid2), 30_000, 'PostgreSQL and Redis to stop');
    expect(processesUsing(dataDir)).toEqual([]);
    // Nothing of the service's process group is left either.
    expect(() => process.kill(-third.child.pid!, 0)).toThrow();
  }, 900_000);
});

describe('first run without Redis', () => {
  it('stops with one line naming how to install Redis or set REDIS_URL, when nothing answers and no redis-server is on the PATH', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, LOCAL_SERVICES: 'always', DATA_DIR: dataDir, DATABASE_URL: ADMIN_URL, PATH: '/nonexistent' };
    delete env.REDIS_URL;
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'run.mjs'), 'apps/standalone/src/main.ts'], { cwd: ROOT, env, encoding: 'utf8', timeout: 120_000 });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'startup error: REDIS_URL: it is not set (LOCAL_SERVICES=always), and there is no redis-server on the PATH: install Redis (Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis) or set REDIS_URL to a Redis server\n',
    );
  }, 180_000);
});
