import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { DEFAULT_READ_ALL_LIMIT, type EventStore, type ReadAllOptions, type ReadAllResult, type SubscribeOptions, type Subscription } from '../../event-store.port';
import { DuplicateEventIdError, EventStoreUnavailableError, WrongExpectedRevisionError } from '../../event-store.errors';
import {
  START,
  laterPosition,
  type AppendResult,
  type EventToAppend,
  type ExpectedRevision,
  type FeedPosition,
  type RecordedEvent,
} from '../../event.types';
import type { EventSchemaRegistry } from '../../upcasting/event-schema-registry';
import { runSubscription } from '../../subscription/run-subscription';
import { CoalescedFeedReads } from '../../subscription/coalesced-feed-reads';
import { FeedNotifier } from './feed-notifier';

export interface PostgresEventStoreOptions {
  /** Pool used for appends and reads. */
  pool: Pool;
  /** Connection string for the dedicated LISTEN connection (live following). */
  connectionString: string;
  registry: EventSchemaRegistry;
  /** Polling interval when no notification arrives (fallback for missed notifications). */
  pollIntervalMs?: number;
  /** End the pool on close (true when the store created it). */
  ownsPool?: boolean;
}

const MAX_BIGINT = 9223372036854775807n;

interface EventRow {
  global_position: string;
  tx: string;
  stream_id: string;
  stream_position: string;
  event_id: string;
  type: string;
  schema_version: number;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  recorded_at: Date;
}

const SELECT_COLUMNS = `global_position, transaction_id::text AS tx, stream_id, stream_position, event_id, type,
  schema_version, data, metadata, recorded_at`;

/** Inserts the events of one append; `$1` stream, `$2` count, `$3..$7` arrays; joined to CTE `s(revision)`. */
const INSERT_MANY = `
INSERT INTO events (stream_id, stream_position, event_id, type, schema_version, data, metadata)
SELECT $1, s.revision - $2 + e.ord, e.id, e.type, e.v, e.data::jsonb, e.meta::jsonb
FROM s, unnest($3::uuid[], $4::text[], $5::int[], $6::text[], $7::text[]) WITH ORDINALITY AS e(id, type, v, data, meta, ord)
RETURNING global_position, stream_position, transaction_id::text AS tx`;

/** The same for the common single-event append, with scalar parameters. */
const INSERT_ONE = `
INSERT INTO events (stream_id, stream_position, event_id, type, schema_version, data, metadata)
SELECT $1, s.revision, $3::uuid, $4, $5, $6::jsonb, $7::jsonb FROM s
RETURNING global_position, stream_position, transaction_id::text AS tx`;

/** How each expectation claims the stream row; `$1` stream, `$2` count, `$8` expected revision. */
const CLAIM_STREAM: Record<ExpectedRevision['kind'], string> = {
  any: `INSERT INTO event_streams AS t (stream_id, revision) VALUES ($1, $2::int - 1)
    ON CONFLICT (stream_id) DO UPDATE SET revision = t.revision + $2::int RETURNING revision`,
  no_stream: `INSERT INTO event_streams (stream_id, revision) VALUES ($1, $2::int - 1)
    ON CONFLICT (stream_id) DO NOTHING RETURNING revision`,
  stream_exists: `UPDATE event_streams AS t SET revision = t.revision + $2::int WHERE t.stream_id = $1 RETURNING revision`,
  exact: `UPDATE event_streams AS t SET revision = t.revision + $2::int WHERE t.stream_id = $1 AND t.revision = $8 RETURNING revision`,
};

/**
 * One statement per append (so one round trip, and its own transaction): the stream row is
 * claimed and the events inserted atomically. Prepared once per connection (named statements).
 */
function appendStatement(kind: ExpectedRevision['kind'], single: boolean): { name: string; text: string } {
  return { name: `es_append_${kind}_${single ? 'one' : 'many'}`, text: `WITH s AS (${CLAIM_STREAM[kind]}) ${single ? INSERT_ONE : INSERT_MANY}` };
}

/**
 * The PostgreSQL event store.
 *
 * Global feed order is (transaction id, global position), and a read returns only events of
 * transactions older than the oldest transaction still in flight (`pg_snapshot_xmin`), so an
 * event whose transaction commits late, with a lower sequence number, is never skipped: it is
 * not readable until every transaction that started before it has ended. Each append is one
 * statement (its own transaction), so a stream's order and the feed order agree.
 */
export class PostgresEventStore implements EventStore {
  readonly kind = 'postgres' as const;
  private readonly notifier: FeedNotifier;
  private readonly pollIntervalMs: number;
  /** The subscriptions' reads: those made together (one wake-up of every live subscription) are one read. */
  private readonly feedReads = new CoalescedFeedReads((options) => this.readAll(options));

  constructor(private readonly options: PostgresEventStoreOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.notifier = new FeedNotifier(options.pool, options.connectionString);
    // An idle connection that the server closes surfaces on its next use; it must not crash the process.
    if (options.ownsPool) options.pool.on('error', () => undefined);
  }

  async appendToStream(streamId: string, events: readonly EventToAppend[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) return this.appendNothing(streamId, expected);
    const ids: string[] = [];
    const types: string[] = [];
    const versions: number[] = [];
    const data: string[] = [];
    const metadata: string[] = [];
    for (const e of events) {
      const schemaVersion = e.metadata?.schemaVersion ?? this.options.registry.currentVersion(e.type);
      ids.push(e.eventId ?? randomUUID());
      types.push(e.type);
      versions.push(schemaVersion);
      data.push(JSON.stringify(e.data));
      metadata.push(JSON.stringify({ ...e.metadata, schemaVersion }));
    }
    const single = events.length === 1;
    const params: unknown[] = single
      ? [streamId, 1, ids[0], types[0], versions[0], data[0], metadata[0]]
      : [streamId, events.length, ids, types, versions, data, metadata];
    if (expected.kind === 'exact') params.push(expected.revision.toString());
    const result = await this.options.pool
      .query<{ global_position: string; stream_position: string; tx: string }>({ ...appendStatement(expected.kind, single), values: params })
      .catch((error: { code?: string; constraint?: string }) => {
        if (error.code === '23505' && error.constraint === 'events_event_id_key') throw new DuplicateEventIdError(streamId, ids);
        throw error;
      });
    if (result.rows.length === 0) {
      throw new WrongExpectedRevisionError(streamId, expected, await this.streamRevision(streamId));
    }
    let last = result.rows[0];
    for (const row of result.rows) if (BigInt(row.global_position) > BigInt(last.global_position)) last = row;
    this.notifier.signal();
    return {
      nextExpectedRevision: BigInt(last.stream_position),
      position: { commit: BigInt(last.tx), prepare: BigInt(last.global_position) },
    };
  }

  /**
   * Creates many new streams in one transaction and one statement (bulk imports and seeding):
   * every stream must not exist yet, else nothing is written and WrongExpectedRevisionError names
   * the first that does.
   */
  async appendToNewStreams(items: readonly { streamId: string; events: readonly EventToAppend[] }[]): Promise<FeedPosition> {
    const streams: string[] = [];
    const revisions: number[] = [];
    const cols = { stream: [] as string[], pos: [] as number[], id: [] as string[], type: [] as string[], v: [] as number[], data: [] as string[], meta: [] as string[] };
    for (const item of items) {
      streams.push(item.streamId);
      revisions.push(item.events.length - 1);
      item.events.forEach((e, k) => {
        const schemaVersion = e.metadata?.schemaVersion ?? this.options.registry.currentVersion(e.type);
        cols.stream.push(item.streamId);
        cols.pos.push(k);
        cols.id.push(e.eventId ?? randomUUID());
        cols.type.push(e.type);
        cols.v.push(schemaVersion);
        cols.data.push(JSON.stringify(e.data));
        cols.meta.push(JSON.stringify({ ...e.metadata, schemaVersion }));
      });
    }
    const client = await this.options.pool.connect();
    try {
      await client.query('BEGIN');
      const claimed = await client.query(
        `INSERT INTO event_streams (stream_id, revision) SELECT * FROM unnest($1::text[], $2::bigint[]) ON CONFLICT (stream_id) DO NOTHING RETURNING stream_id`,
        [streams, revisions],
      );
      if (claimed.rowCount !== streams.length) {
        const taken = new Set(claimed.rows.map((r: { stream_id: string }) => r.stream_id));
        const existing = streams.find((s) => !taken.has(s)) ?? streams[0];
        await client.query('ROLLBACK');
        throw new WrongExpectedRevisionError(existing, { kind: 'no_stream' }, await this.streamRevision(existing));
      }
      const r = await client.query<{ tx: string; max: string }>(
        // Data and metadata travel as one JSON array each, zipped with the other columns by ROWS FROM:
        // a text[] of thousands of JSON documents costs the driver ~40 ms a MB to escape, one JSON text nothing.
        `WITH ins AS (
           INSERT INTO events (stream_id, stream_position, event_id, type, schema_version, data, metadata)
           SELECT s, p, i, t, v, d, m
             FROM ROWS FROM (unnest($1::text[]), unnest($2::bigint[]), unnest($3::uuid[]), unnest($4::text[]), unnest($5::int[]),
                             jsonb_array_elements($6::jsonb), jsonb_array_elements($7::jsonb)) AS x(s, p, i, t, v, d, m)
           RETURNING global_position, transaction_id)
         SELECT max(transaction_id::text) AS tx, max(global_position)::text AS max FROM ins`,
        [cols.stream, cols.pos, cols.id, cols.type, cols.v, `[${cols.data.join(',')}]`, `[${cols.meta.join(',')}]`],
      );
      await client.query('COMMIT');
      this.notifier.signal();
      return { commit: BigInt(r.rows[0].tx), prepare: BigInt(r.rows[0].max) };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  private async appendNothing(streamId: string, expected: ExpectedRevision): Promise<AppendResult> {
    const actual = await this.streamRevision(streamId);
    const ok =
      expected.kind === 'any' ||
      (expected.kind === 'no_stream' && actual === null) ||
      (expected.kind === 'stream_exists' && actual !== null) ||
      (expected.kind === 'exact' && actual === expected.revision);
    if (!ok) throw new WrongExpectedRevisionError(streamId, expected, actual);
    return { nextExpectedRevision: actual ?? -1n, position: await this.headPosition() };
  }

  async streamRevision(streamId: string): Promise<bigint | null> {
    const r = await this.options.pool.query<{ revision: string }>('SELECT revision FROM event_streams WHERE stream_id = $1', [streamId]);
    return r.rows.length ? BigInt(r.rows[0].revision) : null;
  }

  async readStream(streamId: string, options: { fromRevision?: bigint; maxCount?: number } = {}): Promise<RecordedEvent[]> {
    const r = await this.options.pool.query<EventRow>({
      name: 'es_read_stream',
      text: `SELECT ${SELECT_COLUMNS} FROM events WHERE stream_id = $1 AND stream_position >= $2
       ORDER BY stream_position LIMIT $3`,
      values: [streamId, (options.fromRevision ?? 0n).toString(), options.maxCount ?? null],
    });
    return r.rows.map((row) => this.toRecorded(row));
  }

  async readAll(options: ReadAllOptions = {}): Promise<ReadAllResult> {
    const after = options.after ?? START;
    const limit = options.limit ?? DEFAULT_READ_ALL_LIMIT;
    const filter = options.eventTypes ? 'AND type = ANY($4::text[])' : '';
    const params: unknown[] = [after.commit.toString(), after.prepare.toString(), limit];
    if (options.eventTypes) params.push(options.eventTypes);
    // The horizon is read in the same statement (same snapshot) as the events.
    // Named (prepared once per connection): every projector and relay runs it on each wake.
    const r = await this.options.pool.query<EventRow & { horizon: string }>({
      name: options.eventTypes ? 'es_read_all_types' : 'es_read_all',
      text: `WITH h AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin)
       SELECT ${SELECT_COLUMNS}, h.xmin::text AS horizon
       FROM h LEFT JOIN LATERAL (
         SELECT * FROM events
         WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
           AND transaction_id < h.xmin ${filter}
         ORDER BY transaction_id, global_position
         LIMIT $3) e ON true`,
      values: params,
    });
    const horizon = BigInt(r.rows[0].horizon);
    const rows = r.rows[0].event_id === null ? [] : r.rows;
    const events = rows.map((row) => this.toRecorded(row));
    if (events.length === limit) {
      return { events, next: events[events.length - 1].position, endOfFeed: false };
    }
    // Every transaction below the horizon has ended and its events were visible to this read:
    // the feed can continue past all of them, including the ones the type filter left out.
    const pastHorizon: FeedPosition = { commit: horizon - 1n, prepare: MAX_BIGINT };
    const lastRead = events.length ? events[events.length - 1].position : after;
    const next = laterPosition(pastHorizon, lastRead);
    return { events, next, endOfFeed: true };
  }

  async headPosition(): Promise<FeedPosition> {
    const r = await this.options.pool.query<{ tx: string; global_position: string }>(
      `SELECT transaction_id::text AS tx, global_position FROM events
       WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
    );
    return r.rows.length ? { commit: BigInt(r.rows[0].tx), prepare: BigInt(r.rows[0].global_position) } : START;
  }

  async newestPosition(): Promise<FeedPosition> {
    const r = await this.options.pool.query<{ tx: string; global_position: string }>(
      `SELECT transaction_id::text AS tx, global_position FROM events ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
    );
    return r.rows.length ? { commit: BigInt(r.rows[0].tx), prepare: BigInt(r.rows[0].global_position) } : START;
  }

  /**
   * Refreshes the planner's statistics of the feed (`ANALYZE events`: a sample of 30,000 rows at the
   * default target, a fraction of a second; it blocks neither appends nor reads). A replay from the
   * start reads the whole feed a page at a time by its index, and the planner chooses that plan only
   * when it knows how common each event type is: without statistics (a bulk import the autovacuum has
   * not analysed yet, or a server that runs without it) it scans every event after the position and
   * sorts them for each page, which grows with the square of the feed.
   */
  async refreshFeedStatistics(): Promise<void> {
    await this.options.pool.query('ANALYZE events');
  }

  /** Exact number of readable events after a position, counted up to `cap`. */
  async countEventsAfter(position: FeedPosition, cap = 10_000_000): Promise<number> {
    const r = await this.options.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM (SELECT 1 FROM events
         WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
           AND transaction_id < pg_snapshot_xmin(pg_current_snapshot()) LIMIT $3) t`,
      [position.commit.toString(), position.prepare.toString(), cap],
    );
    return Number(r.rows[0].n);
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    return runSubscription(this.feedReads, this.notifier, { pollIntervalMs: this.pollIntervalMs, ...options });
  }

  async ping(): Promise<void> {
    let client: PoolClient | undefined;
    try {
      client = await this.options.pool.connect();
      await client.query('SELECT 1 FROM event_streams LIMIT 1');
    } catch (error) {
      throw new EventStoreUnavailableError(`PostgreSQL event store unreachable: ${(error as Error).message}`);
    } finally {
      client?.release();
    }
  }

  async close(): Promise<void> {
    await this.notifier.close();
    if (this.options.ownsPool) await this.options.pool.end();
  }

  private toRecorded(row: EventRow): RecordedEvent {
    const { data, version } = this.options.registry.upcast(row.type, row.schema_version, row.data);
    const globalPosition = BigInt(row.global_position);
    const metadata = row.metadata as RecordedEvent['metadata'];
    metadata.schemaVersion = version; // the row's own object: no copy on the hot read path
    return {
      eventId: row.event_id,
      type: row.type,
      data,
      metadata,
      streamId: row.stream_id,
      streamPosition: BigInt(row.stream_position),
      globalPosition,
      position: { commit: BigInt(row.tx), prepare: globalPosition },
      recordedAt: row.recorded_at,
    };
  }
}
