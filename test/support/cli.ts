import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './processes';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the administration CLI as `npm run --silent cli -- …` would, and collects its output. */
export function cli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', join(ROOT, 'apps', 'cli', 'src', 'main.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
