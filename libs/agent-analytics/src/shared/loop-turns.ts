import { setImmediate } from 'node:timers/promises';

/**
 * Long work of a request done in short turns of the event loop: `due()` answers a promise to await
 * once the current turn has run `turnMs` (wall-clock) since the last, and undefined before. The
 * other requests of the process (another organisation's reads) are served between two turns.
 *
 * The turn is measured in time, not in items: on a loaded machine the process is descheduled in the
 * middle of a turn, the clock runs on, and the next check yields. Counted items (a turn every 100
 * entries) took ten times longer there than on a quiet machine, and every read waited behind them.
 */
export class LoopTurns {
  private since = performance.now();

  constructor(private readonly turnMs = 2) {}

  due(): Promise<void> | undefined {
    if (performance.now() - this.since < this.turnMs) return undefined;
    return setImmediate().then(() => {
      this.since = performance.now();
    });
  }
}
