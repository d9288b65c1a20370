import { ConfigError } from '@libs/config';
import { StartupError } from './startup-checks';

/**
 * Runs a process's main function. A bad configuration or an unreachable dependency prints its
 * message (one line per problem, naming the setting) and exits with code 1, without a stack.
 */
export function runMain(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    // Stopped by a signal while starting: what failed was closed under it; closeOnSignal exits.
    if (closing) return;
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

/** A signal arrived and the process is closing (closeOnSignal). */
let closing = false;

/**
 * On SIGTERM or SIGINT: close the application (Fastify stops accepting connections and finishes
 * in-flight requests; workers finish their batch in progress), then exit 0. If that takes longer
 * than `timeoutMs`, exit 1 anyway.
 */
export function closeOnSignal(app: { close(): Promise<void> }, timeoutMs: number): void {
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    setTimeout(() => {
      process.stderr.write(`shutdown after ${signal} took longer than ${timeoutMs} ms; exiting\n`);
      process.exit(1);
    }, timeoutMs).unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`error during shutdown: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}
