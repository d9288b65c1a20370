import type { PoolClient } from 'pg';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { START, type EventStore, type FeedPosition, type RecordedEvent } from '@libs/event-store';
import { LOCK_NAMESPACE } from './advisory-locks';
import { checkpoints } from './checkpoint-store';
import { derivedTableSql, quoteIdent, type BulkContext, type ProjectionContext, type Projector } from './projector';
import { binaryCopyable, copyBinaryRows, copyRows } from './kit/copy-rows';
import { checkpointNames, eventShard } from './shards';

export interface RebuildProgress {
  applied: number;
  /** Events in the store when the rebuild began (the progress bar's total). */
  total: number;
}

export interface RebuildResult {
  projector: string;
  eventsRead: number;
  position: FeedPosition;
  durationMs: number;
  eventsPerSecond: number;
}

export class RebuildAlreadyRunningError extends Error {
  override readonly name = 'RebuildAlreadyRunningError';
}

const shadowName = (table: string) => `${table}__rebuild`;
const oldName = (table: string) => `${table}__old`;
const stagingName = (projector: Projector, name: string) => `${projector.name}__stage_${name}`;
/** A bulk rebuild reads the feed in pages of at least this many events. */
const BULK_PAGE = 20_000;

/**
 * Replays a projector from position zero into shadow copies of its tables while the live
 * tables keep serving reads and the live runner keeps them current, then swaps them in:
 * in one transaction that waits for the live batch in progress (advisory lock), applies the last
 * events, renames the tables (and their indexes back to their original names) and moves the
 * checkpoint. The live runner notices the moved checkpoint and continues from it.
 *
 * A projector with a `bulk` rebuild replays differently before the swap: its shadow tables are
 * created without indexes; each page is turned into rows COPYed into UNLOGGED staging tables or
 * straight into the shadows (no transaction per page); then, in one transaction, the indexes are
 * built (the live tables' definitions, so the swap matches them), `finish` completes the shadow
 * tables from the staging tables in SQL and the projector's derived tables are filled by their
 * GROUP BY (their indexes built after). The swap is the same (the tail under the lock through `apply`).
 */
export class ProjectionRebuilder {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EventStore & { countEventsAfter?: (p: FeedPosition, cap?: number) => Promise<number>; refreshFeedStatistics?: () => Promise<void> },
    private readonly batchSize = 5000,
    /** PROJECTION_SHARDS: the swap sets each shard's checkpoint (and removes those of another count). */
    private readonly shards = 1,
    /** A bulk rebuild's pages: at least this many events (and at least `batchSize`). */
    private readonly bulkPage = BULK_PAGE,
  ) {}

  async rebuild(projector: Projector, onProgress?: (p: RebuildProgress) => void): Promise<RebuildResult> {
    const started = Date.now();
    const qr = this.dataSource.createQueryRunner();
    await qr.connect();
    try {
      const [{ ok }] = await qr.query(`SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok`, [LOCK_NAMESPACE.rebuild, projector.name]);
      if (!ok) throw new RebuildAlreadyRunningError(`a rebuild of ${projector.name} is already running`);
      try {
        // The replay reads the whole feed by its index: the planner needs to know the feed as it is now.
        await this.store.refreshFeedStatistics?.();
        const total = this.store.countEventsAfter ? await this.store.countEventsAfter(START) : 0;
        await this.createShadowTables(qr, projector);
        const bulk = projector.bulk;
        // A bulk rebuild loads the shadows without indexes (rows in feed order would reach a key's
        // index at random) and builds them once the feed is read: the statements, per table.
        const indexes = new Map<string, string[]>();
        if (bulk) for (const table of projector.tables) indexes.set(table, await this.dropIndexes(qr, shadowName(table)));
        const shadowContext = (manager: EntityManager): ProjectionContext => ({
          query: (text, params) => manager.query(text, params),
          table: (t) => quoteIdent(shadowName(t)),
          rebuilding: true,
        });
        const memo = new Map<string, unknown>();
        const bulkContext = (manager: EntityManager): BulkContext => ({ ...shadowContext(manager), staging: (n) => quoteIdent(stagingName(projector, n)), memo });
        if (bulk) await this.createStagingTables(qr, projector);
        const eventTypes = projector.handles === 'all' ? undefined : projector.handles;
        let position: FeedPosition = START;
        const perShard: number[] = Array(Math.max(1, this.shards)).fill(0);
        let read = 0;
        const countShards = (events: readonly RecordedEvent[]) => {
          for (const e of events) perShard[this.shards <= 1 ? 0 : eventShard(e, this.shards)]++;
        };
        const applyPage = async (manager: EntityManager, events: RecordedEvent[]) => {
          if (events.length) await projector.apply(events, shadowContext(manager));
          countShards(events);
        };
        // A page's COPY runs while the next page is read and staged (PostgreSQL parses one page, this process encodes the next).
        let copying: Promise<void> = Promise.resolve();
        const stagePage = async (events: RecordedEvent[]) => {
          const staged = await bulk!.stage(events, read, bulkContext(qr.manager));
          await copying;
          const client = (qr as unknown as { databaseConnection: PoolClient }).databaseConnection;
          copying = (async () => {
            for (const [name, rows] of Object.entries(staged)) {
              const direct = bulk!.direct?.[name];
              const types = Object.values(direct ?? {});
              if (!direct) await copyRows(client, quoteIdent(stagingName(projector, name)), null, rows);
              else if (binaryCopyable(types)) await copyBinaryRows(client, quoteIdent(shadowName(name)), Object.keys(direct).map((c, i) => [c, types[i]] as const), rows);
              else await copyRows(client, quoteIdent(shadowName(name)), Object.keys(direct), rows);
            }
          })();
          copying.catch(() => undefined); // surfaced when awaited
          countShards(events);
        };
        // Phase 1: replay outside the swap lock, a transaction per page (a bulk rebuild: COPY into
        // staging, then one aggregation); the next page is read while the current one is applied.
        const pageSize = bulk ? Math.max(this.batchSize, this.bulkPage) : this.batchSize;
        let nextPage = this.store.readAll({ after: position, limit: pageSize, eventTypes });
        for (;;) {
          const page = await nextPage;
          if (!page.endOfFeed) {
            nextPage = this.store.readAll({ after: page.next, limit: pageSize, eventTypes });
            nextPage.catch(() => undefined); // surfaced when awaited
          }
          if (page.events.length && bulk) {
            await stagePage(page.events);
          } else if (page.events.length) {
            await qr.startTransaction();
            try {
              await applyPage(qr.manager, page.events);
              await qr.commitTransaction();
            } catch (error) {
              await qr.rollbackTransaction();
              throw error;
            }
          }
          read += page.events.length;
          position = page.next;
          onProgress?.({ applied: read, total: Math.max(total, read) });
          if (page.endOfFeed) break;
        }
        if (bulk) {
          await copying;
          await qr.startTransaction();
          try {
            // Index builds sort in memory, not on disk (this transaction only).
            await qr.query(`SELECT set_config('maintenance_work_mem', '256MB', true)`);
            const derived = new Set((projector.derived ?? []).map((d) => d.table));
            for (const [table, statements] of indexes) if (!derived.has(table)) for (const s of statements) await qr.query(s);
            await bulk.finish(bulkContext(qr.manager));
            for (const d of projector.derived ?? []) {
              await qr.query(derivedTableSql(d, quoteIdent(shadowName(d.from)), quoteIdent(shadowName(d.table))));
              for (const s of indexes.get(d.table) ?? []) await qr.query(s);
            }
            await qr.commitTransaction();
          } catch (error) {
            await qr.rollbackTransaction();
            throw error;
          }
          await this.dropStagingTables(qr, projector);
        }
        // Phase 2: the swap.
        await qr.startTransaction();
        try {
          // Every shard's live batch in progress is waited for (in a stable order: two rebuilds never deadlock).
          const names = checkpointNames(projector.name, this.shards);
          await qr.query(`SELECT count(pg_advisory_xact_lock($1, hashtext(n))) FROM unnest($2::text[]) AS n`, [LOCK_NAMESPACE.swap, names]);
          for (;;) {
            const page = await this.store.readAll({ after: position, limit: this.batchSize, eventTypes });
            await applyPage(qr.manager, page.events);
            read += page.events.length;
            position = page.next;
            if (page.endOfFeed) break;
          }
          await this.swapTables(qr, projector);
          for (const [k, name] of names.entries()) await checkpoints.reset(qr.manager, name, position, perShard[k]);
          await checkpoints.removeOthers(qr.manager, projector.name, names);
          await qr.commitTransaction();
        } catch (error) {
          await qr.rollbackTransaction();
          throw error;
        }
        onProgress?.({ applied: read, total: Math.max(total, read) });
        const durationMs = Date.now() - started;
        return {
          projector: projector.name,
          eventsRead: read,
          position,
          durationMs,
          eventsPerSecond: Math.round(read / Math.max(durationMs / 1000, 0.001)),
        };
      } finally {
        await qr.query(`SELECT pg_advisory_unlock($1, hashtext($2))`, [LOCK_NAMESPACE.rebuild, projector.name]);
      }
    } finally {
      await this.dropShadowTables(qr, projector).catch(() => undefined);
      await this.dropStagingTables(qr, projector).catch(() => undefined);
      await qr.release();
    }
  }

  private async createShadowTables(qr: QueryRunner, projector: Projector): Promise<void> {
    for (const table of projector.tables) {
      await qr.query(`DROP TABLE IF EXISTS ${quoteIdent(shadowName(table))}`);
      await qr.query(`CREATE TABLE ${quoteIdent(shadowName(table))} (LIKE ${quoteIdent(table)} INCLUDING ALL)`);
    }
  }

  /**
   * Drops a fresh (empty) table's indexes, keys included; returns the statements that build them
   * again with the same names and definitions (a key as its constraint, another index as its definition).
   */
  private async dropIndexes(qr: QueryRunner, table: string): Promise<string[]> {
    const found: { name: string; def: string; conname: string | null; condef: string | null }[] = await qr.query(
      `SELECT quote_ident(ic.relname) AS name, pg_get_indexdef(i.indexrelid) AS def, quote_ident(c.conname) AS conname, pg_get_constraintdef(c.oid) AS condef
         FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
         LEFT JOIN pg_constraint c ON c.conindid = i.indexrelid AND c.conrelid = i.indrelid AND c.contype IN ('p', 'u', 'x')
        WHERE i.indrelid = $1::regclass
        ORDER BY c.contype NULLS LAST, ic.relname`,
      [quoteIdent(table)],
    );
    const build: string[] = [];
    for (const index of found) {
      if (index.conname) {
        await qr.query(`ALTER TABLE ${quoteIdent(table)} DROP CONSTRAINT ${index.conname}`);
        build.push(`ALTER TABLE ${quoteIdent(table)} ADD CONSTRAINT ${index.conname} ${index.condef}`);
      } else {
        await qr.query(`DROP INDEX ${index.name}`);
        build.push(index.def);
      }
    }
    return build;
  }

  private async createStagingTables(qr: QueryRunner, projector: Projector): Promise<void> {
    for (const [name, columns] of Object.entries(projector.bulk?.staging ?? {})) {
      await qr.query(`DROP TABLE IF EXISTS ${quoteIdent(stagingName(projector, name))}`);
      await qr.query(`CREATE UNLOGGED TABLE ${quoteIdent(stagingName(projector, name))} (${columns})`);
    }
  }

  private async dropStagingTables(qr: QueryRunner, projector: Projector): Promise<void> {
    for (const name of Object.keys(projector.bulk?.staging ?? {})) await qr.query(`DROP TABLE IF EXISTS ${quoteIdent(stagingName(projector, name))}`);
  }

  private async dropShadowTables(qr: QueryRunner, projector: Projector): Promise<void> {
    for (const table of projector.tables) await qr.query(`DROP TABLE IF EXISTS ${quoteIdent(shadowName(table))}`);
  }

  /** Renames shadow → live and gives the shadow's indexes (and their constraints) the live names. */
  private async swapTables(qr: QueryRunner, projector: Projector): Promise<void> {
    for (const table of projector.tables) {
      const shadow = shadowName(table);
      const liveIndexes: { indexname: string; def: string }[] = await qr.query(
        `SELECT indexname, indexdef AS def FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1`,
        [table],
      );
      const shadowIndexes: { indexname: string; def: string }[] = await qr.query(
        `SELECT indexname, indexdef AS def FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1`,
        [shadow],
      );
      await qr.query(`LOCK TABLE ${quoteIdent(table)} IN ACCESS EXCLUSIVE MODE`);
      await qr.query(`ALTER TABLE ${quoteIdent(table)} RENAME TO ${quoteIdent(oldName(table))}`);
      await qr.query(`ALTER TABLE ${quoteIdent(shadow)} RENAME TO ${quoteIdent(table)}`);
      await qr.query(`DROP TABLE ${quoteIdent(oldName(table))}`);
      // Match indexes by definition (with the table and index names taken out).
      const shape = (def: string, index: string, tableName: string) =>
        def.split(` ${quoteIdentIfNeeded(index)} `).join(' ? ').split(`.${quoteIdentIfNeeded(tableName)} `).join('.? ');
      const unused = new Set(shadowIndexes);
      for (const live of liveIndexes) {
        const wanted = shape(live.def, live.indexname, table);
        const match = [...unused].find((s) => shape(s.def, s.indexname, shadow) === wanted);
        if (!match) continue;
        unused.delete(match);
        if (match.indexname !== live.indexname) {
          await qr.query(`ALTER INDEX ${quoteIdent(match.indexname)} RENAME TO ${quoteIdent(live.indexname)}`);
        }
      }
    }
  }
}

/** pg_indexes quotes identifiers only when needed. */
function quoteIdentIfNeeded(name: string): string {
  return /^[a-z_][a-z0-9_$]*$/.test(name) ? name : quoteIdent(name);
}
