import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { loadConfig } from '@libs/config';
import { LOCAL_SERVICES_CONFIG } from './local-services.config';
import { provideLocalServices, type LocalServices } from './local-services';
import { accountOf, isAlive } from './process-tools';

/**
 * Which servers a process gets, with the real ones: the machine's PostgreSQL and Redis answer at
 * the default addresses here; the embedded PostgreSQL and a redis-server are started in a
 * temporary DATA_DIR.
 */
let dataDir: string;
let otherDir: string;
const held: LocalServices[] = [];

async function provide(env: NodeJS.ProcessEnv): Promise<LocalServices> {
  const services = await provideLocalServices(env, loadConfig(env, [LOCAL_SERVICES_CONFIG]));
  held.push(services);
  return services;
}

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'local-services-'));
  otherDir = mkdtempSync(join(tmpdir(), 'local-services-'));
});
afterAll(async () => {
  for (const s of held.reverse()) await s.release();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(otherDir, { recursive: true, force: true });
});

jest.setTimeout(180_000);

describe('the servers npm start and the CLI use', () => {
  it('a running server of the checkout comes before the default address; set variables and `never` before both', async () => {
    const own = await provide({ LOCAL_SERVICES: 'always', DATA_DIR: dataDir });
    expect(own.database).toMatch(/^embedded PostgreSQL 18\.\d+ in \S+\/postgres \(initialised and started\), postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/ai_visibility$/);
    expect(own.redis).toMatch(/^redis-server \S+ on 127\.0\.0\.1:\d+ \(started; nothing kept on disk\)$/);
    const pgPid = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);

    // auto: the default addresses answer here, but this checkout's servers run: those.
    const auto = await provide({ DATA_DIR: dataDir });
    expect(auto.env).toEqual(own.env);
    expect(auto.database).toContain('(shared with the process that started it)');

    // A checkout with nothing running: the servers at the default addresses.
    expect((await provide({ DATA_DIR: otherDir })).env).toEqual({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/ai_visibility', REDIS_URL: 'redis://127.0.0.1:6379' });
    // never, and variables that are set, win over a running server of the checkout.
    expect((await provide({ DATA_DIR: dataDir, LOCAL_SERVICES: 'never' })).env).toEqual({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/ai_visibility', REDIS_URL: 'redis://127.0.0.1:6379' });
    const set = await provide({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://app@127.0.0.1:5432/other', REDIS_URL: 'redis://127.0.0.1:6379/2' });
    expect(set.env).toEqual({ DATABASE_URL: 'postgres://app@127.0.0.1:5432/other', REDIS_URL: 'redis://127.0.0.1:6379/2' });
    expect(set.database).toBe('postgres://app@127.0.0.1:5432/other');

    // The embedded server takes the password it was given, and only that.
    const client = new Client({ connectionString: own.env.DATABASE_URL.replace('/ai_visibility', '/postgres') });
    await client.connect();
    expect((await client.query('SELECT current_user AS u')).rows[0].u).toBe('postgres');
    await client.end();
    const wrong = new Client({ connectionString: own.env.DATABASE_URL.replace(/:[0-9a-f]+@/, ':wrong@').replace('/ai_visibility', '/postgres') });
    await expect(wrong.connect()).rejects.toThrow(/password authentication failed/);

    // Released (the last user out): the servers stop.
    const redisPid = (JSON.parse(readFileSync(join(dataDir, 'redis.json'), 'utf8')) as { pid: number }).pid;
    for (const s of held.splice(0).reverse()) await s.release();
    expect(isAlive(pgPid) || isAlive(redisPid)).toBe(false);
  });

  it('a data folder whose password file is gone stops the start with one line, instead of waiting on a server it cannot log in to', async () => {
    rmSync(join(dataDir, 'postgres.json'));
    await expect(provide({ LOCAL_SERVICES: 'always', DATA_DIR: dataDir })).rejects.toThrow(
      `DATABASE_URL: ${join(dataDir, 'postgres.json')} (the embedded PostgreSQL's password) is missing; restore it, or remove ${join(dataDir, 'postgres')} to start afresh`,
    );
    expect(readFileSync(join(dataDir, 'postgres', 'PG_VERSION'), 'utf8').trim()).toMatch(/^18$/);
  });

  const nobody = accountOf('nobody');
  const canSwitch = process.getuid?.() === 0 && nobody !== null && spawnSync('setpriv', ['--version']).status === 0;
  (canSwitch ? it : it.skip)('run by an ordinary account (a laptop), the embedded PostgreSQL runs as that account, in its own folder, and stops', () => {
    const dir = mkdtempSync(join(tmpdir(), 'local-services-'));
    try {
      chownSync(dir, nobody!.uid, nobody!.gid);
      const script = join(__dirname, 'testing', 'provide-once.ts');
      const env = { PATH: process.env.PATH, LOCAL_SERVICES: 'always', DATA_DIR: join(dir, 'data') };
      const r = spawnSync('setpriv', [`--reuid=${nobody!.uid}`, `--regid=${nobody!.gid}`, '--clear-groups', process.execPath, '-r', '@swc-node/register', script], { cwd: join(__dirname, '..', '..', '..'), env, encoding: 'utf8', timeout: 120_000 });
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout)).toMatchObject({ uid: nobody!.uid, database: expect.stringMatching(/^embedded PostgreSQL 18\.\d+ in \S+\/postgres \(initialised and started\)/), redis: expect.stringMatching(/\(started; nothing kept on disk\)$/) });
      const pgdata = statSync(join(dir, 'data', 'postgres'));
      expect([pgdata.uid, pgdata.mode & 0o777]).toEqual([nobody!.uid, 0o700]);
      expect(readdirSync(join(dir, 'data')).sort()).toEqual(['postgres', 'postgres.json', 'postgres.log', 'redis.log']);
      expect(statSync(join(dir, 'data', 'postgres.json')).mode & 0o777).toBe(0o600);
      // Stopped cleanly: PostgreSQL removes its lock file when it shuts down.
      expect(existsSync(join(dir, 'data', 'postgres', 'postmaster.pid'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
