import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './support/spawn-script';

/**
 * npm run bench:first-run — prints one JSON line:
 * - `npm start` to its banner with the embedded PostgreSQL and its own redis-server
 *   (LOCAL_SERVICES=always, a new DATA_DIR): the first run (initdb, migrations, the demo seeded) and
 *   the second on the same data, each stopped by Ctrl+C (SIGINT to its process group) in between;
 * - `npm run cli -- --help` as typed (npm's own start included; no command file loaded);
 * - `cli key create --help`, which loads a command file and the libraries behind it (what every
 *   real command loads), from the runtime build (`node scripts/run.mjs …`) and compiled as it loads
 *   (`node -r @swc-node/register apps/cli/src/main.ts …`, as `npm run cli` ran before);
 * the median of BENCH_RUNS (7) each, alternating: wall seconds and CPU seconds (user + system, by
 * GNU time), the latter telling what a machine loaded by others hides.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

/** Wall seconds and CPU seconds (user + system, from GNU time) of one run of a command. */
function timed(command: string, args: string[]): { wall: number; cpu: number } {
  const started = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', 'cpu %U %S', command, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const [, user, system] = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr)!;
  return { wall, cpu: Number(user) + Number(system) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
/** Medians of a command's runs: wall seconds, and CPU seconds (what a quiet machine's wall time approaches). */
const figures = (runs: { wall: number; cpu: number }[]) => ({ wall: round(median(runs.map((r) => r.wall))), cpu: round(median(runs.map((r) => r.cpu))) });

/** Seconds from `npm start` to its banner's last line; then Ctrl+C and the wait for its exit. */
async function startToBanner(dataDir: string, port: number): Promise<number> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOCAL_SERVICES: 'always', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', npm_config_update_notifier: 'false' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const started = process.hrtime.bigint();
  const child = spawn('npm', ['start'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const seconds = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (/\n {2}stop: /.test(out)) resolve(Number(process.hrtime.bigint() - started) / 1e9);
    });
    child.once('exit', () => reject(new Error(`npm start ended before its banner: ${out}`)));
  });
  process.kill(-child.pid!, 'SIGINT');
  await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve)));
  return seconds;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-first-run-'));
  try {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const first = await startToBanner(dataDir, port);
    const second = await startToBanner(dataDir, port);
    const help: { wall: number; cpu: number }[] = [];
    const built: { wall: number; cpu: number }[] = [];
    const compiled: { wall: number; cpu: number }[] = [];
    const command = ['key', 'create', '--help'];
    for (let i = 0; i < RUNS; i++) {
      help.push(timed('npm', ['run', '--silent', 'cli', '--', '--help']));
      built.push(timed(process.execPath, [join(ROOT, 'scripts', 'run.mjs'), 'apps/cli/src/main.ts', ...command]));
      compiled.push(timed(process.execPath, ['-r', '@swc-node/register', join(ROOT, 'apps', 'cli', 'src', 'main.ts'), ...command]));
    }
    console.log(
      JSON.stringify({
        bench: 'first-run',
        npmStartToBannerSeconds: { firstRun: round(first, 1), secondRun: round(second, 1) },
        npmRunCliHelpSeconds: figures(help),
        cliKeyCreateHelpSeconds: { runtimeBuild: figures(built), compiledAsItLoads: figures(compiled) },
        runs: RUNS,
        loadAverage: Number(spawnSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).stdout.split(' ')[0] || 0),
      }),
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
