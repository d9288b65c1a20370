/**
 * A position in the global feed. PostgreSQL: commit = the writing transaction's id (xid8),
 * prepare = the event's global sequence number. EventStoreDB: its commit/prepare positions.
 * Feed order is (commit, prepare) ascending.
 */
export interface FeedPosition {
  readonly commit: bigint;
  readonly prepare: bigint;
}

export const START: FeedPosition = Object.freeze({ commit: 0n, prepare: 0n });

export function comparePositions(a: FeedPosition, b: FeedPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

/** The later of two positions (either when they are equal). */
export function laterPosition(a: FeedPosition, b: FeedPosition): FeedPosition {
  return comparePositions(a, b) >= 0 ? a : b;
}

export function formatPosition(p: FeedPosition): string {
  return `${p.commit}/${p.prepare}`;
}

/** Parses "commit/prepare" (as printed by formatPosition) or a plain integer (commit and prepare equal). */
export function parsePosition(text: string): FeedPosition {
  const m = /^(\d{1,20})(?:\/(\d{1,20}))?$/.exec(text.trim());
  if (!m) throw new RangeError(`not a feed position: "${text}" (expected "commit/prepare" or an integer)`);
  const commit = BigInt(m[1]);
  return { commit, prepare: m[2] === undefined ? commit : BigInt(m[2]) };
}

export type ExpectedRevision =
  | { kind: 'any' }
  | { kind: 'no_stream' }
  | { kind: 'stream_exists' }
  | { kind: 'exact'; revision: bigint };

export const ExpectedRevision = {
  any: { kind: 'any' } as ExpectedRevision,
  noStream: { kind: 'no_stream' } as ExpectedRevision,
  streamExists: { kind: 'stream_exists' } as ExpectedRevision,
  exact: (revision: bigint | number): ExpectedRevision => ({ kind: 'exact', revision: BigInt(revision) }),
  describe(e: ExpectedRevision): string {
    return e.kind === 'exact' ? `revision ${e.revision}` : e.kind;
  },
};

export interface EventMetadata {
  organizationId?: number | string | null;
  actor?: string | null;
  correlationId?: string | null;
  causationId?: string | null;
  /** The schema version the data was written with; set by the store from the registry when omitted. */
  schemaVersion?: number;
  [key: string]: unknown;
}

export interface EventToAppend<T extends string = string, D = Record<string, unknown>> {
  /** A UUID; generated when omitted. A store may reject an id it already holds (DuplicateEventIdError). */
  eventId?: string;
  type: T;
  data: D;
  metadata?: EventMetadata;
}

export interface RecordedEvent<T extends string = string, D = Record<string, unknown>> {
  eventId: string;
  type: T;
  data: D;
  metadata: EventMetadata & { schemaVersion: number };
  streamId: string;
  /** 0-based position within its stream. */
  streamPosition: bigint;
  /** The store's global number (PostgreSQL: a unique bigint identity; EventStoreDB: the commit position, shared by the events of one append). */
  globalPosition: bigint;
  /** Where the feed continues after this event. */
  position: FeedPosition;
  recordedAt: Date;
}

export interface AppendResult {
  /** The stream's revision after the append (the last event's streamPosition). */
  nextExpectedRevision: bigint;
  /** Feed position of the last appended event (for read-your-writes waits). */
  position: FeedPosition;
}
