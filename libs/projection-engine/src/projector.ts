import type { RecordedEvent } from '@libs/event-store';

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
