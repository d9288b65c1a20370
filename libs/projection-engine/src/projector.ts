import type { RecordedEvent } from '@libs/event-store';
import type { ColumnType } from './kit/column-type';

/**
 * What a projector's `apply` gets: `query`, which runs in the transaction that also advances the
 * checkpoint (so the batch and the checkpoint commit or fail together), and the physical name of
 * each of its tables. A rebuild writes to shadow tables, so a projector always names its tables
 * through `table()`, never literally.
 */
export interface ProjectionContext {
  /**
   * Runs a statement in the batch's transaction: live, as a named (prepared) statement on the
   * transaction's connection, so a projector's few statement shapes are parsed and planned once
   * per connection, not once per batch; while rebuilding (shadow tables, large batches), unnamed.
   */
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  /** The quoted physical name of one of the projector's tables. */
  table(name: string): string;
  /** True while replaying from zero into shadow tables. */
  readonly rebuilding: boolean;
}

/**
 * A projector builds read-model tables from the global feed. Its tables are created by
 * migrations; they must not use `serial` columns (a rebuild copies tables with LIKE … INCLUDING
 * ALL and drops the old one with its owned sequences): use identity columns or natural keys.
 */
export interface Projector {
  /** Unique, stable name (also the checkpoint's key). */
  readonly name: string;
  /** Event types it handles, or 'all'. */
  readonly handles: readonly string[] | 'all';
  /** The tables it owns (rebuilt together). */
  readonly tables: readonly string[];
  /** Applies a batch in feed order, inside the batch's transaction. Must be deterministic. */
  apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void>;
  /**
   * Optional: how a rebuild replays the feed in bulk (COPY into staging tables, aggregate in SQL)
   * instead of `apply` page by page. The rows it leaves in the shadow tables must be those `apply`
   * would have left; the tail applied under the swap lock still goes through `apply`.
   */
  readonly bulk?: BulkRebuild;
  /**
   * Optional: tables derived from another of its tables by a GROUP BY (a coarser rollup), each
   * also in `tables` and kept by `apply`; a bulk rebuild fills them from the source table once it
   * is built, and a per-brand rebuild (projections/visibility) refills a brand's rows the same way.
   */
  readonly derived?: readonly DerivedTable[];
}

/**
 * A table a projector keeps that is a GROUP BY of another of its tables: the coarse rows are the
 * sums of the fine rows over the columns the coarse table leaves out. Its statement, with `source`
 * and `target` the physical (quoted) names and an optional extra condition (`brand_id = $1`):
 *   INSERT INTO target (keys…, sums…) SELECT keys…, sum(s)… FROM source [WHERE …] GROUP BY keys…
 */
export interface DerivedTable {
  /** The derived (coarse) table. */
  readonly table: string;
  /** The table it is derived from (one of the projector's). */
  readonly from: string;
  /** Columns copied and grouped by (the coarse table's key and the columns they determine). */
  readonly keys: readonly string[];
  /** Columns summed. */
  readonly sums: readonly string[];
}

/** The statement that fills a derived table from its source (see DerivedTable). */
export function derivedTableSql(d: DerivedTable, source: string, target: string, where = ''): string {
  const keys = d.keys.map(quoteIdent).join(', ');
  const sums = d.sums.map((c) => `sum(${quoteIdent(c)})`).join(', ');
  return `INSERT INTO ${target} (${keys}, ${d.sums.map(quoteIdent).join(', ')}) SELECT ${keys}, ${sums} FROM ${source}${where ? ` WHERE ${where}` : ''} GROUP BY ${keys}`;
}

/** What a bulk rebuild works with: the rebuild's context (shadow tables) and its staging tables. */
export interface BulkContext extends ProjectionContext {
  /** The quoted physical name of one of the bulk rebuild's staging tables. */
  staging(name: string): string;
  /** What the bulk rebuild keeps from page to page (e.g. brands' owners read once), for this rebuild only. */
  readonly memo: Map<string, unknown>;
}

/**
 * Rows a bulk rebuild's `stage` returns: per staging table, or per table of `direct` (written into
 * its shadow), rows of values in that table's columns' order (`staging`'s definition, `direct`'s list).
 */
export type StagedRows = Record<string, readonly (readonly unknown[])[]>;

/**
 * A projector's bulk rebuild: the rebuilder creates the staging tables (UNLOGGED, dropped at the
 * end) and the shadow tables without their indexes (keys included), hands every page of the feed to
 * `stage` (with `seq`, the position of the page's first event in the replay: events are numbered in
 * feed order across pages), COPYs what it returns into the staging tables and, for the tables of
 * `direct`, straight into their shadows; once the feed is read it builds the shadows' indexes (the
 * live tables' definitions), then calls `finish` once, which completes the shadow tables from the
 * staging tables in SQL. Rows written directly must not collide on the table's keys (the index build
 * would fail): what `stage` cannot be sure of goes to staging.
 */
export interface BulkRebuild {
  /** Staging tables: name → column definitions (`seq bigint, result_id text, …`). */
  readonly staging: Readonly<Record<string, string>>;
  /** Tables of the projector `stage` may write to directly: name → the columns its rows give, in order, with their types. */
  readonly direct?: Readonly<Record<string, Readonly<Record<string, ColumnType>>>>;
  stage(events: readonly RecordedEvent[], seq: number, context: BulkContext): Promise<StagedRows>;
  finish(context: BulkContext): Promise<void>;
}

/**
 * A reactor follows the feed like a projector (same runner, same lock, same checkpoint) but its
 * effect is a command, not a row: "when an answer is recorded, analyse it", "when a fix is
 * deployed, schedule its verification". At-least-once: `react` runs before the batch's checkpoint
 * transaction, so after a crash between the two the batch is given again. Every command it runs
 * must therefore be idempotent (an id derived from the event, an expected revision, a unique key),
 * so a repeat changes nothing. A reactor is never rebuilt (history is not re-acted).
 */
export interface Reactor {
  /** Unique, stable name (also the checkpoint's key). */
  readonly name: string;
  /** Event types it reacts to, or 'all'. */
  readonly handles: readonly string[] | 'all';
  /** Reacts to a batch, in feed order, outside any read-model transaction. Throws to have the batch given again. */
  react(events: readonly RecordedEvent[]): Promise<void>;
}

/** What follows the feed from a checkpoint: a projector (rows, exactly once) or a reactor (commands, at least once). */
export type FeedConsumer = Projector | Reactor;

export function isReactor(consumer: FeedConsumer): consumer is Reactor {
  return typeof (consumer as Partial<Reactor>).react === 'function';
}

/** Injection token: the array of reactors a process runs. */
export const REACTORS = Symbol('REACTORS');

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
