import { Client, type Pool } from 'pg';
import { LocalFeedWaker, type FeedWaker } from '../../subscription/feed-waker';

export const FEED_CHANNEL = 'event_feed';

/**
 * Wakes subscribers when events are appended, in this process at once and in other processes
 * through LISTEN/NOTIFY. NOTIFY is sent outside the append (after its commit) and coalesced:
 * at most one is in flight per process, so a burst of appends costs one or two notifications,
 * not one each (at most one per `minIntervalMs`), and the append path keeps a single round trip. Subscribers also poll, so a lost
 * notification only delays them by the poll interval.
 */
export class FeedNotifier implements FeedWaker {
  private readonly local = new LocalFeedWaker();
  private sending = false;
  private pending = false;
  private listener: Client | null = null;
  private listening: Promise<void> | null = null;
  private closed = false;
  private reconnectTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly pool: Pool,
    private readonly connectionString: string,
    /** At most one NOTIFY per this interval per process (a burst of appends costs one or two). */
    private readonly minIntervalMs = 2,
  ) {}

  generation(): number {
    this.ensureListening();
    return this.local.generation();
  }

  waitForChange(seen: number, timeoutMs: number): Promise<void> {
    return this.local.waitForChange(seen, timeoutMs);
  }

  /** Called after a successful append. */
  signal(): void {
    this.local.wake();
    if (this.sending) {
      this.pending = true;
      return;
    }
    this.sending = true;
    const send = (): void => {
      this.pending = false;
      this.pool
        .query(`SELECT pg_notify('${FEED_CHANNEL}', '')`)
        .catch(() => undefined) // subscribers poll as a fallback
        .finally(() => {
          if (this.pending && !this.closed) setTimeout(send, this.minIntervalMs);
          else this.sending = false;
        });
    };
    send();
  }

  private ensureListening(): void {
    if (this.listening || this.closed) return;
    this.listening = this.connect();
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.connectionString });
    client.on('notification', () => this.local.wake());
    client.on('error', () => this.scheduleReconnect(client));
    client.on('end', () => this.scheduleReconnect(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${FEED_CHANNEL}`);
      if (this.closed) {
        await client.end().catch(() => undefined);
        return;
      }
      this.listener = client;
      this.local.wake(); // anything appended while we were not listening
    } catch {
      this.scheduleReconnect(client);
    }
  }

  private scheduleReconnect(client: Client): void {
    if (this.closed || this.reconnectTimer) return;
    if (this.listener === client) this.listener = null;
    client.end().catch(() => undefined);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.listening = null;
      this.ensureListening();
    }, 1000);
    this.reconnectTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    await this.listening?.catch(() => undefined);
    const listener = this.listener;
    this.listener = null;
    if (listener) {
      listener.removeAllListeners('end');
      listener.removeAllListeners('error');
      listener.on('error', () => undefined);
      await listener.end().catch(() => undefined);
    }
  }
}
