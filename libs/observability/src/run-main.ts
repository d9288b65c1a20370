import { ConfigError } from '../../config/src';
import { StartupError } from './startup-checks';

/**
 * Runs a process's main function. A bad configuration or an unreachable dependency prints its
 * message (one line per problem, naming the setting) and exits with code 1, without a stack.
 */
export function runMain(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    if (error instanceof ConfigError) {
      for (const p of error.problems) process.stderr.write(`configuration error: ${p}\n`);
    } else if (error instanceof StartupError) {
      process.stderr.write(`startup error: ${error.message}\n`);
    } else {
      process.stderr.write(`fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    }
    process.exit(1);
  });
}

/** After a shutdown signal, exit anyway when graceful shutdown takes longer than `timeoutMs`. */
export function forceExitAfter(timeoutMs: number): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      setTimeout(() => {
        process.stderr.write(`shutdown took longer than ${timeoutMs} ms; exiting\n`);
        process.exit(1);
      }, timeoutMs).unref();
    });
  }
}
