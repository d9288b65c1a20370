/** Something that says "the feed may have grown": a notification channel, with a generation counter. */
export interface FeedWaker {
  /** Increases every time a wake-up arrives. */
  generation(): number;
  /** Resolves when the generation moves past `seen`, or after `timeoutMs`, or at once if it already has. */
  waitForChange(seen: number, timeoutMs: number): Promise<void>;
}

/** In-process waker: `wake()` releases every waiter. */
export class LocalFeedWaker implements FeedWaker {
  private gen = 0;
  private waiters = new Set<() => void>();

  generation(): number {
    return this.gen;
  }

  wake(): void {
    this.gen += 1;
    const waiters = this.waiters;
    this.waiters = new Set();
    for (const w of waiters) w();
  }

  waitForChange(seen: number, timeoutMs: number): Promise<void> {
    if (this.gen !== seen) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(done);
    });
  }
}
