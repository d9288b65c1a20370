import { Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';

export interface PeriodicTaskOptions {
  /** Names the task in its log lines. */
  name: string;
  /** Time between two passes. */
  everyMs: number;
  /** When the first pass runs after start: 0 at once; by default one period after start. */
  firstAfterMs?: number;
  /** One pass (its result goes to `onResult`). */
  run: () => Promise<unknown>;
  /** What a pass that succeeded is worth logging (nothing by default). */
  onResult?: (result: unknown, logger: Logger) => void;
  /** The level a failed pass is logged at (a failed pass waits for the next period). */
  failureLevel?: 'warn' | 'error';
  logger?: Logger;
}

/**
 * A pass that repeats in the background of a worker process (schedulers and sweeps): at most one
 * pass at a time (a tick while one runs is skipped), a failure logged and left to the next period,
 * timers that never keep the process alive, and `stop()` that clears them and waits for the pass
 * in hand, to be called before shutdown (while the database and the event store are still open).
 */
export class PeriodicTask {
  private readonly logger: Logger;
  private timers: NodeJS.Timeout[] = [];
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly options: PeriodicTaskOptions) {
    this.logger = options.logger ?? new Logger(options.name);
  }

  start(): void {
    this.stopped = false;
    const { everyMs, firstAfterMs } = this.options;
    this.timers.push(setInterval(() => void this.tick(), everyMs));
    if (firstAfterMs === 0) void this.tick();
    else if (firstAfterMs !== undefined) this.timers.push(setTimeout(() => void this.tick(), firstAfterMs));
    for (const t of this.timers) t.unref();
  }

  /** Runs a pass now, unless one is in hand (then resolves when that one ends); never rejects. */
  tick(): Promise<void> {
    if (this.running) return this.running;
    if (this.stopped) return Promise.resolve();
    this.running = this.options
      .run()
      .then(
        (result) => {
          try {
            this.options.onResult?.(result, this.logger);
          } catch (error) {
            this.logger.warn(`${this.options.name}: reporting a pass failed: ${(error as Error).message}`);
          }
        },
        (error: unknown) => this.logger[this.options.failureLevel ?? 'warn'](`${this.options.name} failed: ${(error as Error).message}`),
      )
      .finally(() => (this.running = null));
    return this.running;
  }

  /** Clears the timers and waits for the pass in hand. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
    await this.running;
  }
}

/**
 * A worker service whose work is one PeriodicTask: started when the application is up, stopped
 * (its pass in hand awaited) before shutdown. Subclasses give the task's timing and their `pass`.
 */
export abstract class PeriodicService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly task: PeriodicTask;

  protected constructor(options: Omit<PeriodicTaskOptions, 'run'>) {
    this.task = new PeriodicTask({ ...options, run: () => this.pass() });
  }

  /** One pass of the work. */
  protected abstract pass(): Promise<unknown>;

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }
}
