import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/** Runs one of the project's TypeScript entry points (e.g. apps/worker/src/main.ts) as a child process. */
export function spawnScript(script: string, env: Record<string, string>, stdio: StdioOptions = ['ignore', 'ignore', 'inherit'], nodeArgs: readonly string[] = []): ChildProcess {
  return spawn(process.execPath, [...nodeArgs, '-r', '@swc-node/register', join(ROOT, script)], { cwd: ROOT, env: { ...process.env, ...env }, stdio });
}
