import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import type { EventMetadata, FeedPosition, RecordedEvent } from '@libs/event-store';
import { preparedQuery } from '@libs/sql';
import { quoteIdent, type Projector } from '../projector';

/** An event as a test gives it: its type, data and stream; the rest is filled in. */
export interface GivenEvent {
  type: string;
  data: Record<string, unknown>;
  streamId: string;
  metadata?: EventMetadata;
  /** Default: one millisecond after the previous event given (from 2025-01-01T00:00:00Z). */
  recordedAt?: Date;
}

/**
 * Given events → rows, on a real (migrated) PostgreSQL database: the projector's `apply` runs
 * exactly as the live runner runs it (one transaction per batch, prepared statements, live table
 * names), with stream revisions and feed positions numbered in order, and events of types the
 * projector does not handle left out as the feed would leave them out.
 *
 *   const harness = projectorHarness(databaseUrl, opportunityCountsProjector);
 *   await harness.given([detected(1), moved(1, 'detected', 'triaged')]);
 *   expect(await harness.rows('opportunity_counts', 'status')).toEqual([...]);
 *   await harness.close();
 */
export function projectorHarness(databaseUrl: string, projector: Projector) {
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  const revisions = new Map<string, number>();
  let commit = 0n;
  let clock = Date.parse('2025-01-01T00:00:00Z');

  const record = (e: GivenEvent): RecordedEvent => {
    const revision = (revisions.get(e.streamId) ?? -1) + 1;
    revisions.set(e.streamId, revision);
    commit += 1n;
    clock = e.recordedAt ? e.recordedAt.getTime() : clock + 1;
    const position: FeedPosition = { commit, prepare: commit };
    return {
      eventId: randomUUID(),
      streamId: e.streamId,
      streamPosition: BigInt(revision),
      type: e.type,
      data: e.data,
      metadata: { schemaVersion: 1, ...(e.metadata ?? {}) },
      globalPosition: commit,
      position,
      recordedAt: new Date(clock),
    };
  };

  const handles = (type: string) => projector.handles === 'all' || projector.handles.includes(type);

  return {
    /** Applies the events as one batch, in one transaction (call again for a further batch). Returns them as recorded. */
    async given(events: readonly GivenEvent[], options: { rebuilding?: boolean } = {}): Promise<RecordedEvent[]> {
      const recorded = events.map(record);
      const batch = recorded.filter((e) => handles(e.type));
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        if (batch.length) {
          const query = async <R>(text: string, params: unknown[] = []) =>
            (options.rebuilding ? (await client.query(text, params)).rows : await preparedQuery(client, text, params)) as R[];
          await projector.apply(batch, { query, table: quoteIdent, rebuilding: options.rebuilding ?? false });
        }
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
      return recorded;
    },
    /** The table's rows, ordered by `orderBy` (a column list), numbers as PostgreSQL returns them. */
    async rows<R = Record<string, unknown>>(table: string, orderBy: string, columns = '*'): Promise<R[]> {
      return (await pool.query(`SELECT ${columns} FROM ${quoteIdent(table)} ORDER BY ${orderBy}`)).rows as R[];
    },
    /** Runs a statement on the database (set-up: brands, clients…). */
    async sql<R = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<R[]> {
      return (await pool.query(text, params)).rows as R[];
    },
    /** Empties the projector's tables (a fresh start for the next case). */
    async reset(): Promise<void> {
      await pool.query(`TRUNCATE ${projector.tables.map(quoteIdent).join(', ')}`);
      revisions.clear();
    },
    async close(): Promise<void> {
      await pool.end();
    },
  };
}

export type ProjectorHarness = ReturnType<typeof projectorHarness>;
