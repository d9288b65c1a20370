import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/** Every child still running when the test file ends is killed, so no test leaves a process behind. */
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts one of the apps (`apps/<name>/src/main.ts`) as a real child process. */
export function startApp(name: 'api' | 'worker' | 'standalone', env: Record<string, string>): ChildProcess & { output: () => string } {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', join(ROOT, 'apps', name, 'src', 'main.ts')], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return Object.assign(child, { output: () => out });
}

export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

export { until } from './until';

/** A loopback port nobody listens on now (the system picks it), so a started app does not collide with another test's. */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Waits until the app answers `GET /health` at `base`. Start-up compiles the TypeScript as it loads:
 * under a full suite on 2 cores it has taken over 30 s, hence 90 s. A process that exits first
 * fails at once with what it printed, and so does the timeout.
 */
export async function listening(child: ChildProcess & { output: () => string }, base: string, ms = 90_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the app exited (${child.exitCode ?? child.signalCode}) before listening at ${base}:\n${child.output()}`);
    if ((await fetch(`${base}/health`).catch(() => null))?.ok === true) return;
    if (Date.now() > deadline) throw new Error(`the app did not answer at ${base}/health within ${ms} ms; it printed:\n${child.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
