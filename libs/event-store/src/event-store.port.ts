import type { AppendResult, EventToAppend, ExpectedRevision, FeedPosition, RecordedEvent } from './event.types';

/** Injection token for the configured event store adapter. */
export const EVENT_STORE = Symbol('EVENT_STORE');

/** A feed read's `limit` when it names none. */
export const DEFAULT_READ_ALL_LIMIT = 1000;

export interface ReadAllOptions {
  /** Read events strictly after this position (default: from the beginning). */
  after?: FeedPosition;
  /** At most this many events (default 1000). */
  limit?: number;
  /** Only these event types (the position still advances past the others). */
  eventTypes?: readonly string[];
}

export interface ReadAllResult {
  events: RecordedEvent[];
  /** Where the next read should continue from (past every event examined, even filtered out ones). */
  next: FeedPosition;
  /** True when the read reached the current end of the readable feed. */
  endOfFeed: boolean;
}

export interface SubscribeOptions {
  after?: FeedPosition;
  batchSize?: number;
  eventTypes?: readonly string[];
  /** Called with each batch, in feed order; the next batch is read only after the promise resolves. */
  onBatch: (events: RecordedEvent[], next: FeedPosition) => Promise<void>;
  /** Called once when the subscription first reaches the end of the feed (caught up). */
  onCaughtUp?: () => void;
  onError?: (error: unknown) => void;
}

export interface Subscription {
  /** Stops after the batch in progress, if any, has been handled. */
  stop(): Promise<void>;
  /** Resolves when the subscription ends (stopped or failed). */
  readonly done: Promise<void>;
}

/**
 * The event store port. Adapters: PostgreSQL (default) and EventStoreDB. Both pass the same
 * contract suite (libs/event-store/src/testing/event-store.contract.ts).
 */
export interface EventStore {
  readonly kind: 'postgres' | 'eventstoredb';
  /** Appends atomically, checked against the expected revision; throws WrongExpectedRevisionError. */
  appendToStream(streamId: string, events: readonly EventToAppend[], expected: ExpectedRevision): Promise<AppendResult>;
  /**
   * Optional bulk path (imports and seeding): creates many new streams in one transaction; every
   * stream must not exist yet, else nothing is written (WrongExpectedRevisionError). Adapters
   * without it are driven stream by stream with `appendToStream(..., noStream)`.
   */
  appendToNewStreams?(items: readonly { streamId: string; events: readonly EventToAppend[] }[]): Promise<FeedPosition>;
  /** The stream's events in order, upcast to their current schema; an empty array when the stream does not exist. */
  readStream(streamId: string, options?: { fromRevision?: bigint; maxCount?: number }): Promise<RecordedEvent[]>;
  /** The stream's current revision, or null when it does not exist. */
  streamRevision(streamId: string): Promise<bigint | null>;
  /** One page of the global feed. Never skips an event that commits late. */
  readAll(options?: ReadAllOptions): Promise<ReadAllResult>;
  /** The position of the newest readable event (START when the store is empty). */
  headPosition(): Promise<FeedPosition>;
  /**
   * The position of the newest committed event (START when the store is empty): what a writer
   * waits for its readers to reach after its own appends. It can be past headPosition(), which a
   * transaction still open anywhere holds back.
   */
  newestPosition(): Promise<FeedPosition>;
  /** Catch up from a position, then follow live. */
  subscribeToAll(options: SubscribeOptions): Subscription;
  /** Throws if the store cannot be reached (used by /ready). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
