import type { EventStore, SubscribeOptions, Subscription } from '../event-store.port';
import { START, comparePositions, type FeedPosition } from '../event.types';
import type { FeedWaker } from './feed-waker';

/**
 * Catch-up-then-live subscription over any store's `readAll`: read pages until the end of the
 * feed, then wait for a wake-up (or the poll interval) and read again. Each batch is handed over
 * only after the previous one was handled, so a slow consumer applies back-pressure.
 */
export function runSubscription(
  store: Pick<EventStore, 'readAll'>,
  waker: FeedWaker,
  options: SubscribeOptions & { pollIntervalMs: number; idleCheckpointMs?: number },
): Subscription {
  let stopped = false;
  let wakeStop: () => void = () => undefined;
  const stopSignal = new Promise<void>((resolve) => (wakeStop = resolve));
  const batchSize = options.batchSize ?? 1000;
  const idleCheckpointMs = options.idleCheckpointMs ?? 1000;

  const loop = async () => {
    let position: FeedPosition = options.after ?? START;
    let delivered: FeedPosition = position;
    let lastDelivery = Date.now();
    let caughtUp = false;
    // While catching up, the next page is read while the consumer handles the current one.
    let prefetched: ReturnType<typeof store.readAll> | null = null;
    while (!stopped) {
      const seen = waker.generation();
      const page = await (prefetched ?? store.readAll({ after: position, limit: batchSize, eventTypes: options.eventTypes }));
      prefetched = null;
      if (stopped) break;
      if (!page.endOfFeed) {
        prefetched = store.readAll({ after: page.next, limit: batchSize, eventTypes: options.eventTypes });
        prefetched.catch(() => undefined); // surfaced when awaited
      }
      position = page.next;
      if (page.events.length > 0) {
        await options.onBatch(page.events, page.next);
        delivered = page.next;
        lastDelivery = Date.now();
      } else if (comparePositions(position, delivered) > 0 && Date.now() - lastDelivery >= idleCheckpointMs) {
        // Only filtered-out events went by: let the consumer move its checkpoint now and then, also
        // when they came right after a delivery and nothing has come since (the next polls find
        // nothing new, yet the consumer is still behind the feed's end).
        await options.onBatch([], position);
        delivered = position;
        lastDelivery = Date.now();
      }
      if (!page.endOfFeed) continue;
      if (!caughtUp) {
        caughtUp = true;
        options.onCaughtUp?.();
      }
      await Promise.race([waker.waitForChange(seen, options.pollIntervalMs), stopSignal]);
    }
  };

  const done = loop().catch((error: unknown) => {
    stopped = true;
    if (options.onError) options.onError(error);
    else throw error;
  });

  return {
    done,
    async stop() {
      stopped = true;
      wakeStop();
      await done.catch(() => undefined);
    },
  };
}
