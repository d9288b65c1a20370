import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  DeadlineExceededError,
  StreamNotFoundError,
  UnavailableError,
  WrongExpectedVersionError,
  jsonEvent,
  type AllStreamResolvedEvent,
  type AppendResult as EsdbAppendResult,
  type ResolvedEvent,
  type StreamingRead,
} from '@eventstore/db-client';
import type { EventStore, ReadAllOptions, ReadAllResult, SubscribeOptions, Subscription } from '../../event-store.port';
import { EventStoreUnavailableError, WrongExpectedRevisionError } from '../../event-store.errors';
import { START, type AppendResult, type EventToAppend, type ExpectedRevision, type FeedPosition, type RecordedEvent } from '../../event.types';
import type { EventSchemaRegistry } from '../../upcasting/event-schema-registry';
import { runSubscription } from '../../subscription/run-subscription';
import { EventStoreDbFeedWaker } from './eventstoredb-feed-waker';
import {
  expectationHolds,
  findHeadPosition,
  fromEsdbCurrentRevision,
  pageAll,
  recordPosition,
  revisionAfterAppend,
  toEsdbExpectedRevision,
  toEventToWrite,
  toRecordedEvent,
  DuplicateEventIdError,
  type EsdbReadPosition,
  type ResolvedRecord,
  type StoredRecord,
} from './eventstoredb-mapping';

export interface EventStoreDbEventStoreOptions {
  /** e.g. `esdb://127.0.0.1:2113?tls=false`. Ignored when `client` is given. */
  connectionString: string;
  registry: EventSchemaRegistry;
  /** Use this client instead of creating one (it is still disposed by `close()`). */
  client?: EventStoreDBClient;
  /** Subscriptions re-read `$all` at least this often when no live wake-up arrives (default 200 ms). */
  pollIntervalMs?: number;
  /** `ping()` fails when the server has not answered within this time (default 2000 ms). */
  pingTimeoutMs?: number;
}

const DEFAULT_POLL_INTERVAL_MS = 200;
const DEFAULT_PING_TIMEOUT_MS = 2000;

async function collect<E>(read: StreamingRead<E>): Promise<E[]> {
  const out: E[] = [];
  for await (const item of read) out.push(item);
  return out;
}

function asResolvedRecords(entries: readonly (AllStreamResolvedEvent | ResolvedEvent)[]): ResolvedRecord[] {
  // The client's RecordedEvent is structurally a StoredRecord (its union of JSON / binary shapes
  // only narrows `data`, `metadata` and `isJson`).
  return entries.map((e) => ({ event: e.event as StoredRecord | undefined, commitPosition: e.commitPosition }));
}

/** Connection-level failures become EventStoreUnavailableError; everything else passes through. */
function translateError(error: unknown): unknown {
  if (error instanceof UnavailableError || error instanceof DeadlineExceededError) {
    return new EventStoreUnavailableError(`EventStoreDB unavailable: ${error.message}`, { cause: error });
  }
  return error;
}

/**
 * The EventStoreDB event store (the client connects lazily, on the first call).
 *
 * - Feed positions are EventStoreDB's (commit, prepare) positions; `globalPosition` is the commit
 *   position. `$all` is written in order by a single writer, so a position is never filled in late.
 * - `readAll` is exclusive of `after` (EventStoreDB's read is inclusive; the event at exactly
 *   `after` is skipped), leaves out system events and system streams, and moves `next` past every
 *   event it examined, filtered out or not.
 * - `subscribeToAll` is the shared catch-up loop (`runSubscription`) over `readAll`, woken by a live
 *   `$all` subscription (or local appends), with a poll fallback.
 */
export class EventStoreDbEventStore implements EventStore {
  readonly kind = 'eventstoredb' as const;
  private readonly client: EventStoreDBClient;
  private readonly registry: EventSchemaRegistry;
  private readonly waker: EventStoreDbFeedWaker;
  private readonly pollIntervalMs: number;
  private readonly pingTimeoutMs: number;
  private readonly map = (record: StoredRecord, commitPosition?: bigint): RecordedEvent =>
    toRecordedEvent(record, this.registry, commitPosition);

  constructor(options: EventStoreDbEventStoreOptions) {
    this.client = options.client ?? EventStoreDBClient.connectionString(options.connectionString);
    this.registry = options.registry;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    this.pingTimeoutMs = options.pingTimeoutMs ?? DEFAULT_PING_TIMEOUT_MS;
    this.waker = new EventStoreDbFeedWaker(this.client);
  }

  async appendToStream(streamId: string, events: readonly EventToAppend[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) return this.appendNothing(streamId, expected);
    const expectedRevision = toEsdbExpectedRevision(expected);
    if (expectedRevision === null) throw new WrongExpectedRevisionError(streamId, expected, await this.streamRevision(streamId));
    const toWrite = events.map((e) => jsonEvent(toEventToWrite(e, this.registry)));
    let result: EsdbAppendResult;
    try {
      result = await this.client.appendToStream(streamId, toWrite, { expectedRevision });
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        throw new WrongExpectedRevisionError(streamId, expected, fromEsdbCurrentRevision(error.actualVersion));
      }
      throw translateError(error);
    }
    const revision = result.nextExpectedRevision;
    const mustBe = revisionAfterAppend(expected, events.length);
    if (result.position === undefined || (mustBe !== null && revision !== mustBe)) {
      // EventStoreDB acknowledged an idempotent replay of an earlier append (same event ids)
      // without writing anything; it says so by returning no position. The port rejects it.
      throw await this.replayError(streamId, expected, toWrite.map((e) => e.id));
    }
    this.waker.signal();
    return { nextExpectedRevision: revision, position: await this.appendedPosition(streamId, revision, events.length, result.position) };
  }

  /**
   * The feed position of the last appended event. For a single event it is the position the
   * append returned; for several the last event is read back, since the append's position need
   * not be the last event's (falling back to the returned one if the read has no position).
   */
  private async appendedPosition(streamId: string, revision: bigint, count: number, returned: FeedPosition): Promise<FeedPosition> {
    const fallback = { commit: returned.commit, prepare: returned.prepare };
    if (count === 1) return fallback;
    const [last] = await this.readStreamRaw(streamId, { fromRevision: revision, maxCount: 1, direction: FORWARDS });
    const position = last?.event ? recordPosition(last.event, last.commitPosition) : START;
    return position.commit === 0n && position.prepare === 0n ? fallback : position;
  }

  /**
   * What an acknowledged-but-not-written append is reported as: with an expectation that pinned
   * the stream (no_stream, exact) it was stale, as PostgreSQL would say; otherwise the event ids
   * were already used (PostgreSQL: a unique violation on event_id).
   */
  private async replayError(streamId: string, expected: ExpectedRevision, eventIds: string[]): Promise<Error> {
    const actual = await this.streamRevision(streamId);
    if (expected.kind === 'no_stream' || expected.kind === 'exact') return new WrongExpectedRevisionError(streamId, expected, actual);
    return new DuplicateEventIdError(streamId, eventIds);
  }

  /** An empty append checks the expectation and writes nothing; its position is the feed's head (as PostgreSQL). */
  private async appendNothing(streamId: string, expected: ExpectedRevision): Promise<AppendResult> {
    const actual = await this.streamRevision(streamId);
    if (!expectationHolds(expected, actual)) throw new WrongExpectedRevisionError(streamId, expected, actual);
    return { nextExpectedRevision: actual ?? -1n, position: await this.headPosition() };
  }

  async streamRevision(streamId: string): Promise<bigint | null> {
    const [last] = await this.readStreamRaw(streamId, { fromRevision: END, maxCount: 1, direction: BACKWARDS });
    return last?.event ? last.event.revision : null;
  }

  async readStream(streamId: string, options: { fromRevision?: bigint; maxCount?: number } = {}): Promise<RecordedEvent[]> {
    if (options.maxCount !== undefined && options.maxCount <= 0) return [];
    const entries = await this.readStreamRaw(streamId, {
      fromRevision: options.fromRevision ?? 'start',
      maxCount: options.maxCount,
      direction: FORWARDS,
    });
    const out: RecordedEvent[] = [];
    for (const entry of entries) if (entry.event) out.push(this.map(entry.event, entry.commitPosition));
    return out;
  }

  /** A stream read; a stream that does not exist reads as empty. */
  private async readStreamRaw(
    streamId: string,
    options: { fromRevision: bigint | 'start' | 'end'; maxCount?: number; direction: typeof FORWARDS | typeof BACKWARDS },
  ): Promise<ResolvedRecord[]> {
    try {
      const entries = await collect(
        this.client.readStream(streamId, {
          fromRevision: options.fromRevision,
          direction: options.direction,
          ...(options.maxCount !== undefined ? { maxCount: options.maxCount } : {}),
        }),
      );
      return asResolvedRecords(entries);
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw translateError(error);
    }
  }

  private async readAllRaw(from: EsdbReadPosition, maxCount: number, direction: typeof FORWARDS | typeof BACKWARDS): Promise<ResolvedRecord[]> {
    try {
      return asResolvedRecords(await collect(this.client.readAll({ fromPosition: from, maxCount, direction })));
    } catch (error) {
      throw translateError(error);
    }
  }

  readAll(options: ReadAllOptions = {}): Promise<ReadAllResult> {
    return pageAll((from, maxCount) => this.readAllRaw(from, maxCount, FORWARDS), this.map, options);
  }

  headPosition(): Promise<FeedPosition> {
    return findHeadPosition((from, maxCount) => this.readAllRaw(from, maxCount, BACKWARDS));
  }

  /** EventStoreDB's feed holds no event back: the newest committed one is the head. */
  newestPosition(): Promise<FeedPosition> {
    return this.headPosition();
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    this.waker.acquire();
    const subscription = runSubscription(this, this.waker, { pollIntervalMs: this.pollIntervalMs, ...options });
    void subscription.done.finally(() => this.waker.release()).catch(() => undefined);
    return subscription;
  }

  /** Reads the newest `$all` entry with a short deadline: this opens the connection if needed. */
  async ping(): Promise<void> {
    const read = this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 });
    const reading = collect(read);
    reading.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${this.pingTimeoutMs} ms`)), this.pingTimeoutMs);
    });
    try {
      await Promise.race([reading, timeout]);
    } catch (error) {
      void read.cancel().catch(() => undefined);
      const message = error instanceof Error ? error.message : String(error);
      throw new EventStoreUnavailableError(`EventStoreDB event store unreachable: ${message}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.waker.close();
    await this.client.dispose();
  }
}

export function createEventStoreDbEventStore(options: EventStoreDbEventStoreOptions): EventStoreDbEventStore {
  return new EventStoreDbEventStore(options);
}
