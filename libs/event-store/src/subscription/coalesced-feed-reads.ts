import DataLoader from 'dataloader';
import { DEFAULT_READ_ALL_LIMIT, type ReadAllOptions, type ReadAllResult } from '../event-store.port';
import { START, comparePositions, laterPosition, type RecordedEvent } from '../event.types';

/**
 * Feed reads asked for together served by one read. Every live subscription of a process wakes on
 * the same notification and reads the feed at once (a worker runs a dozen projection units): their
 * reads, made in the same tick (DataLoader's batch), become one read from the least advanced of
 * them, with the union of their event types and the largest of their limits. Each is then given
 * exactly what it would have read alone:
 * - the page's events past its own position and of its own types, at most its own limit (a full
 *   limit ends its page there, not at the end of the feed, as alone);
 * - when the page reached the end of the feed, the same `next` (the read's horizon: every
 *   transaction below it has ended, whatever the types), else the page's last position (every
 *   event up to there was examined with a superset of its types);
 * - a reader already at or past the end of a page that stopped at its limit (a reader far ahead of
 *   one catching up) reads alone.
 * The events are shared between the readers, as one reader's are between the members of a group:
 * consumers read them and never change them.
 */
export class CoalescedFeedReads {
  private readonly loader: DataLoader<ReadAllOptions, ReadAllResult>;
  /** The shared read in flight: reads asked for meanwhile wait for it and go together next. */
  private inFlight: Promise<unknown> | null = null;

  constructor(private readonly read: (options: ReadAllOptions) => Promise<ReadAllResult>) {
    this.loader = new DataLoader(
      (asked) => {
        const together = this.readTogether(asked);
        const ended = () => {
          if (this.inFlight === settled) this.inFlight = null;
        };
        const settled = together.then(ended, ended);
        this.inFlight = settled;
        return together;
      },
      { cache: false, batchScheduleFn: (dispatch) => (this.inFlight ? void this.inFlight.then(dispatch) : setImmediate(dispatch)) },
    );
  }

  readAll(options: ReadAllOptions = {}): Promise<ReadAllResult> {
    return this.loader.load(options);
  }

  private async readTogether(asked: readonly ReadAllOptions[]): Promise<ReadAllResult[]> {
    if (asked.length === 1) return [await this.read(asked[0])];
    let after = asked[0].after ?? START;
    for (const o of asked) if (comparePositions(o.after ?? START, after) < 0) after = o.after ?? START;
    const limit = Math.max(...asked.map((o) => o.limit ?? DEFAULT_READ_ALL_LIMIT));
    const eventTypes = asked.some((o) => !o.eventTypes) ? undefined : [...new Set(asked.flatMap((o) => o.eventTypes!))];
    const page = await this.read({ after, limit, eventTypes });
    return Promise.all(asked.map((o) => this.share(page, o)));
  }

  private async share(page: ReadAllResult, options: ReadAllOptions): Promise<ReadAllResult> {
    const after = options.after ?? START;
    const limit = options.limit ?? DEFAULT_READ_ALL_LIMIT;
    if (!page.endOfFeed && comparePositions(after, page.next) >= 0) return this.read(options);
    const types = options.eventTypes ? new Set(options.eventTypes) : null;
    const events: RecordedEvent[] = [];
    for (const e of page.events) {
      if (comparePositions(e.position, after) <= 0 || (types && !types.has(e.type))) continue;
      events.push(e);
      if (events.length === limit) return { events, next: e.position, endOfFeed: false };
    }
    if (!page.endOfFeed) return { events, next: page.next, endOfFeed: false };
    return { events, next: laterPosition(page.next, events.length ? events[events.length - 1].position : after), endOfFeed: true };
  }
}
