import { END, excludeSystemEvents, type AllStreamSubscription, type EventStoreDBClient } from '@eventstore/db-client';
import { LocalFeedWaker, type FeedWaker } from '../../subscription/feed-waker';

/**
 * Wakes the adapter's subscriptions when the feed may have grown: appends made through this
 * process wake them at once, and a live EventStoreDB `$all` subscription from the end (system
 * events filtered out on the server) wakes them for appends made anywhere. The live subscription
 * is only a wake-up signal; events are always read with `readAll`, so nothing depends on what it
 * delivers. It runs while at least one subscription is active and is restarted after a failure;
 * subscriptions also poll, so a broken live subscription only costs latency.
 */
export class EventStoreDbFeedWaker implements FeedWaker {
  private readonly local = new LocalFeedWaker();
  private live: AllStreamSubscription | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private users = 0;
  private closed = false;

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly retryDelayMs = 1000,
  ) {}

  generation(): number {
    return this.local.generation();
  }

  waitForChange(seen: number, timeoutMs: number): Promise<void> {
    return this.local.waitForChange(seen, timeoutMs);
  }

  /** Called after a successful append through this process. */
  signal(): void {
    this.local.wake();
  }

  /** A subscription starts using the waker: make sure the live wake-up subscription runs. */
  acquire(): void {
    this.users += 1;
    this.ensureLive();
  }

  /** A subscription ended: stop the live subscription when nobody needs it. */
  release(): void {
    this.users = Math.max(0, this.users - 1);
    if (this.users === 0) void this.stopLive();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.users = 0;
    await this.stopLive();
  }

  private ensureLive(): void {
    if (this.closed || this.users === 0 || this.live || this.retryTimer) return;
    let live: AllStreamSubscription;
    try {
      live = this.client.subscribeToAll({ fromPosition: END, filter: excludeSystemEvents() });
    } catch {
      this.retryLater();
      return;
    }
    this.live = live;
    const failed = (): void => {
      if (this.live !== live) return;
      this.live = null;
      this.retryLater();
    };
    live.on('data', () => this.local.wake());
    live.on('error', failed);
    live.on('end', failed);
    live.on('close', failed);
  }

  private retryLater(): void {
    if (this.closed || this.users === 0 || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      // Something may have been appended while the live subscription was down.
      this.local.wake();
      this.ensureLive();
    }, this.retryDelayMs);
    this.retryTimer.unref();
  }

  private async stopLive(): Promise<void> {
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
      this.retryTimer = null;
    }
    const live = this.live;
    this.live = null;
    if (live) await live.unsubscribe().catch(() => undefined);
  }
}
