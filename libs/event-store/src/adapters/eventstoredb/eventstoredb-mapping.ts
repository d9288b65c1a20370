/**
 * The pure parts of the EventStoreDB adapter: how the port's notions (expected revisions, feed
 * positions, metadata, upcasting) map to EventStoreDB's, and the paging logic over `$all`. Kept
 * free of any client call so it can be unit-tested without a server.
 */
import { randomUUID } from 'node:crypto';
import {
  START,
  comparePositions,
  type EventMetadata,
  type EventToAppend,
  type ExpectedRevision,
  type FeedPosition,
  type RecordedEvent,
} from '../../event.types';
import { DEFAULT_READ_ALL_LIMIT, type ReadAllOptions, type ReadAllResult } from '../../event-store.port';
import type { EventSchemaRegistry } from '../../upcasting/event-schema-registry';

/** EventStoreDB's expected-revision values (the client's constants are these strings). */
export type EsdbExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | bigint;
/** EventStoreDB's "current revision" in a WrongExpectedVersionError. */
export type EsdbCurrentRevision = 'no_stream' | bigint;
/** Where a forward read of `$all` starts (inclusive). */
export type EsdbReadPosition = 'start' | 'end' | FeedPosition;


// ---------------------------------------------------------------------------------------------
// Expected revisions
// ---------------------------------------------------------------------------------------------

/**
 * The port's expectation as EventStoreDB's. `null` for an exact revision below 0, which no stream
 * can be at (EventStoreDB would reject it as an invalid argument; the port treats it as a conflict).
 */
export function toEsdbExpectedRevision(expected: ExpectedRevision): EsdbExpectedRevision | null {
  switch (expected.kind) {
    case 'any':
      return 'any';
    case 'no_stream':
      return 'no_stream';
    case 'stream_exists':
      return 'stream_exists';
    case 'exact':
      return expected.revision < 0n ? null : expected.revision;
  }
}

/** EventStoreDB's current revision as the port's (`null` = the stream does not exist). */
export function fromEsdbCurrentRevision(actual: unknown): bigint | null {
  if (typeof actual === 'bigint') return actual < 0n ? null : actual;
  if (typeof actual === 'number' && Number.isInteger(actual)) return actual < 0 ? null : BigInt(actual);
  return null; // 'no_stream' (or anything unexpected: treat as absent)
}

/** Whether a stream at `actual` (null = absent) satisfies the expectation. */
export function expectationHolds(expected: ExpectedRevision, actual: bigint | null): boolean {
  switch (expected.kind) {
    case 'any':
      return true;
    case 'no_stream':
      return actual === null;
    case 'stream_exists':
      return actual !== null;
    case 'exact':
      return actual === expected.revision;
  }
}

/**
 * The revision a successful append of `count` events must leave the stream at, when the
 * expectation pins the start (no_stream, exact); `null` when it does not (any, stream_exists).
 * A different answer means EventStoreDB did not write these events (an idempotent replay of an
 * earlier append); the adapter's main signal for that is an append result without a position.
 */
export function revisionAfterAppend(expected: ExpectedRevision, count: number): bigint | null {
  if (expected.kind === 'no_stream') return BigInt(count) - 1n;
  if (expected.kind === 'exact') return expected.revision + BigInt(count);
  return null;
}

// ---------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------

/** What is sent to EventStoreDB for one event (the shape `jsonEvent` takes). */
export interface EsdbEventToWrite {
  id: string;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata & { schemaVersion: number };
}

/**
 * The event as written: a generated UUID when `eventId` is omitted, and JSON metadata that always
 * carries `schemaVersion` (the caller's, else the registry's current version for the type).
 */
export function toEventToWrite(event: EventToAppend, registry: Pick<EventSchemaRegistry, 'currentVersion'>): EsdbEventToWrite {
  const schemaVersion = event.metadata?.schemaVersion ?? registry.currentVersion(event.type);
  return {
    id: event.eventId ?? randomUUID(),
    type: event.type,
    data: event.data,
    metadata: { ...event.metadata, schemaVersion },
  };
}

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

/** The fields of an EventStoreDB recorded event the adapter uses (structurally the client's RecordedEvent). */
export interface StoredRecord {
  streamId: string;
  id: string;
  type: string;
  revision: bigint;
  created: Date;
  data: unknown;
  metadata: unknown;
  isJson: boolean;
  position?: { commit: bigint; prepare: bigint };
}

/** One entry of a `$all` / stream read (structurally the client's ResolvedEvent). */
export interface ResolvedRecord {
  event?: StoredRecord;
  commitPosition?: bigint;
}

/**
 * An append whose event ids were already written to the stream: EventStoreDB acknowledged it
 * idempotently and wrote nothing. (EventStoreDB detects this per stream and best-effort only: the
 * same id in another stream, or long after, is written again.)
 */
export { DuplicateEventIdError } from '../../event-store.errors';

export class EventDecodingError extends Error {
  override readonly name = 'EventDecodingError';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

/** A JSON object from what the client hands back (already parsed, or raw bytes / text). */
export function decodeJsonObject(value: unknown, what: string): Record<string, unknown> {
  let parsed: unknown = value;
  if (value instanceof Uint8Array) {
    const text = Buffer.from(value).toString('utf8');
    if (text.trim() === '') throw new EventDecodingError(`${what} is empty, not a JSON object`);
    parsed = text;
  }
  if (typeof parsed === 'string') {
    try {
      parsed = JSON.parse(parsed);
    } catch {
      throw new EventDecodingError(`${what} is not valid JSON`);
    }
  }
  if (!isPlainObject(parsed)) throw new EventDecodingError(`${what} is not a JSON object`);
  return parsed;
}

/** Stored metadata (absent, bytes or an object) and its schema version (1 when absent or invalid). */
export function decodeMetadata(value: unknown, what: string): { metadata: EventMetadata; schemaVersion: number } {
  if (value === undefined || value === null) return { metadata: {}, schemaVersion: 1 };
  if (value instanceof Uint8Array && value.length === 0) return { metadata: {}, schemaVersion: 1 };
  const metadata = decodeJsonObject(value, what) as EventMetadata;
  const v = metadata.schemaVersion;
  const schemaVersion = typeof v === 'number' && Number.isInteger(v) && v >= 1 ? v : 1;
  return { metadata, schemaVersion };
}

/** An event's feed position: the record's own, else the read's commit position, else START (unknown). */
export function recordPosition(record: StoredRecord, commitPosition?: bigint): FeedPosition {
  if (record.position) return { commit: record.position.commit, prepare: record.position.prepare };
  if (commitPosition !== undefined) return { commit: commitPosition, prepare: commitPosition };
  return START;
}

/**
 * The port's RecordedEvent, upcast to the type's current schema. `metadata.schemaVersion` is the
 * version the returned data has (as the PostgreSQL adapter does), not the stored one.
 */
export function toRecordedEvent(
  record: StoredRecord,
  registry: Pick<EventSchemaRegistry, 'upcast'>,
  commitPosition?: bigint,
): RecordedEvent {
  const where = `event ${record.id} (${record.streamId}@${record.revision}, ${record.type})`;
  const stored = decodeJsonObject(record.data, `data of ${where}`);
  const { metadata, schemaVersion } = decodeMetadata(record.metadata, `metadata of ${where}`);
  const { data, version } = registry.upcast(record.type, schemaVersion, stored);
  const position = recordPosition(record, commitPosition);
  return {
    eventId: record.id,
    type: record.type,
    data,
    metadata: { ...metadata, schemaVersion: version },
    streamId: record.streamId,
    streamPosition: record.revision,
    globalPosition: position.commit,
    position,
    recordedAt: record.created,
  };
}

/** System events (`$`-prefixed type, e.g. links `$>`, `$metadata`) and events of system streams (`$stats…`, `$$meta`). */
export function isSystemRecord(record: Pick<StoredRecord, 'streamId' | 'type'>): boolean {
  return record.type.startsWith('$') || record.streamId.startsWith('$');
}

// ---------------------------------------------------------------------------------------------
// Positions
// ---------------------------------------------------------------------------------------------

/** Where a forward `$all` read for "strictly after `after`" starts; EventStoreDB's start is inclusive. */
export function readStartFor(after: FeedPosition): EsdbReadPosition {
  return comparePositions(after, START) <= 0 ? 'start' : { commit: after.commit, prepare: after.prepare };
}

/** True when `position` is strictly after `after` (the inclusive read's first event at `after` is skipped). */
export function isStrictlyAfter(position: FeedPosition, after: FeedPosition): boolean {
  return comparePositions(position, after) > 0;
}

// ---------------------------------------------------------------------------------------------
// Paging over $all
// ---------------------------------------------------------------------------------------------

/** Reads up to `maxCount` entries of `$all` forwards from `from` (inclusive). */
export type ReadForward = (from: EsdbReadPosition, maxCount: number) => Promise<ResolvedRecord[]>;
/** Reads up to `maxCount` entries of `$all` backwards from `from` (the end, or a position). */
export type ReadBackward = (from: EsdbReadPosition, maxCount: number) => Promise<ResolvedRecord[]>;

export interface PageAllOptions extends ReadAllOptions {
  /** Stop after examining this many entries (system and filtered-out ones included) even if the page is not full. */
  maxExamined?: number;
  /** Entries per read call (at least 2, so every call makes progress past the inclusive start). */
  chunkSize?: number;
}

/**
 * One page of the port's feed over EventStoreDB's `$all`: events strictly after `after`, without
 * system events, optionally only some types. `next` is the position of the last entry examined
 * (also when it was filtered out), so the next page starts past it. `endOfFeed` is true when the
 * read reached the end of `$all` before the page filled up.
 */
export async function pageAll(
  readForward: ReadForward,
  map: (record: StoredRecord, commitPosition?: bigint) => RecordedEvent,
  options: PageAllOptions = {},
): Promise<ReadAllResult> {
  const after = options.after ?? START;
  const limit = options.limit ?? DEFAULT_READ_ALL_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`readAll limit must be a positive integer (got ${limit})`);
  const types = options.eventTypes ? new Set(options.eventTypes) : null;
  const maxExamined = options.maxExamined ?? Math.max(10_000, limit * 10);
  const events: RecordedEvent[] = [];
  let next: FeedPosition = after;
  let from: EsdbReadPosition = readStartFor(after);
  let examined = 0;
  for (;;) {
    const chunkSize = options.chunkSize ?? Math.min(Math.max(limit - events.length + 1, 64), 4096);
    if (chunkSize < 2) throw new RangeError('chunkSize must be at least 2');
    const chunk = await readForward(from, chunkSize);
    let fresh = 0;
    for (const entry of chunk) {
      const record = entry.event;
      if (!record) continue;
      const position = recordPosition(record, entry.commitPosition);
      if (!isStrictlyAfter(position, next)) continue; // the inclusive start (or anything not past it)
      fresh += 1;
      examined += 1;
      next = position;
      if (isSystemRecord(record) || (types !== null && !types.has(record.type))) continue;
      events.push(map(record, entry.commitPosition));
      if (events.length === limit) return { events, next, endOfFeed: false };
    }
    if (chunk.length < chunkSize) return { events, next, endOfFeed: true };
    // A full chunk: more may follow. Bound the work of one call (a long run of system events).
    if (fresh === 0 || examined >= maxExamined) return { events, next, endOfFeed: false };
    from = { commit: next.commit, prepare: next.prepare };
  }
}

/**
 * The position of the newest non-system event, reading `$all` backwards from the end; START when
 * there is none. Gives up after `maxExamined` entries and then returns the newest position seen
 * (a valid feed position at or past every readable event, so "caught up to head" still works).
 */
export async function findHeadPosition(readBackward: ReadBackward, options: { chunkSize?: number; maxExamined?: number } = {}): Promise<FeedPosition> {
  const chunkSize = options.chunkSize ?? 256;
  const maxExamined = options.maxExamined ?? 10_000;
  let from: EsdbReadPosition = 'end';
  let newest: FeedPosition | null = null;
  let oldestSeen: FeedPosition | null = null;
  let examined = 0;
  for (;;) {
    const chunk = await readBackward(from, chunkSize);
    let fresh = 0;
    for (const entry of chunk) {
      const record = entry.event;
      if (!record) continue;
      const position = recordPosition(record, entry.commitPosition);
      if (oldestSeen !== null && comparePositions(position, oldestSeen) >= 0) continue;
      fresh += 1;
      examined += 1;
      oldestSeen = position;
      newest ??= position;
      if (!isSystemRecord(record)) return position;
    }
    if (chunk.length < chunkSize) return START;
    if (fresh === 0 || examined >= maxExamined || oldestSeen === null) return newest ?? START;
    from = { commit: oldestSeen.commit, prepare: oldestSeen.prepare };
  }
}
