import 'reflect-metadata';
import { CommanderError } from 'commander';
import { baseProgram, buildProgram } from './program';
import type { CliContext } from './cli-context';

/**
 * The administration CLI: `npm run --silent cli -- <command>`. With --json a command prints
 * exactly one JSON document on stdout; errors go to stderr with a non-zero exit code. Only the
 * command file of the command asked for is loaded (program.ts), so `--help` answers at once.
 */
const program = baseProgram();

const json = () => Boolean(program.opts<{ json?: boolean }>().json);

/** Errors a user fixes by changing the command (exit 2), by name: their classes load with their commands. */
const USAGE_ERRORS = new Set(['CliUsageError', 'TenancyInputError', 'ApiKeyInputError']);

function fail(error: unknown): void {
  const e = error as { name?: string; message?: string; problems?: unknown };
  if (e?.name === 'ConfigError' && Array.isArray(e.problems)) for (const p of e.problems) process.stderr.write(`configuration error: ${p}\n`);
  else process.stderr.write(`error: ${e?.message ?? String(error)}\n`);
  process.exitCode = USAGE_ERRORS.has(e?.name ?? '') ? 2 : 1;
}

async function run(fn: (ctx: CliContext) => Promise<void>): Promise<void> {
  let ctx: CliContext | null = null;
  try {
    const { CliContext } = await import('./cli-context');
    ctx = await CliContext.open();
    await fn(ctx);
  } catch (error) {
    fail(error);
  } finally {
    await ctx?.close().catch(() => undefined);
  }
}

buildProgram(process.argv.slice(2), { run, fail, json }, program)
  .then((p) => p.parseAsync(process.argv))
  .catch((error: unknown) => {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? 0 : 2;
      return;
    }
    process.stderr.write(`error: ${(error as Error).message}\n`);
    process.exitCode = 1;
  });
