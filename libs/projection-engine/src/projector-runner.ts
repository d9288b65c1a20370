import { hostname } from 'node:os';
import type { DataSource, QueryRunner } from 'typeorm';
import { comparePositions, type EventStore, type FeedPosition, type RecordedEvent, type Subscription } from '@libs/event-store';
import type { PoolClient } from 'pg';
import { preparedQuery } from '@libs/sql';
import { LOCK_NAMESPACE } from './advisory-locks';
import { checkpoints } from './checkpoint-store';
import { isReactor, quoteIdent, type FeedConsumer } from './projector';

export interface RunnerOptions {
  batchSize: number;
  /** How often a waiting process tries to take over the projector. */
  lockRetryMs: number;
  onBatchApplied?: (projector: string, events: number, position: FeedPosition) => void;
  onError?: (projector: string, error: unknown) => void;
}

export type RunnerState = 'starting' | 'waiting-for-lock' | 'running' | 'stopped';

class CheckpointMovedError extends Error {
  override readonly name = 'CheckpointMovedError';
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs one projector (or reactor) live. Only one process at a time holds the projector's advisory lock
 * (session level, on the connection that also runs the batches): the others wait and take over
 * when the holder's connection ends, as it does when its process dies. Each batch is applied in
 * one transaction that also moves the checkpoint with a compare-and-set, so a crash at any point
 * neither loses nor repeats an effect.
 */
export class ProjectorRunner {
  state: RunnerState = 'starting';
  position: FeedPosition | null = null;
  readonly owner = `${hostname()}:${process.pid}`;
  private stopping = false;
  private subscription: Subscription | null = null;
  private loop: Promise<void> | null = null;
  private wakeSleep: (() => void) | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
    /** The projector or reactor this runner follows the feed for. */
    readonly projector: FeedConsumer,
    private readonly options: RunnerOptions,
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  /** Finishes the batch in progress, releases the lock and returns. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeSleep?.();
    await this.subscription?.stop();
    await this.loop;
    this.state = 'stopped';
  }

  private async pause(ms: number): Promise<void> {
    await Promise.race([sleep(ms), new Promise<void>((resolve) => (this.wakeSleep = resolve))]);
    this.wakeSleep = null;
  }

  private async run(): Promise<void> {
    const name = this.projector.name;
    while (!this.stopping) {
      let qr: QueryRunner | null = null;
      try {
        qr = this.dataSource.createQueryRunner();
        await qr.connect();
        const [{ ok }] = await qr.query(`SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok`, [LOCK_NAMESPACE.runner, name]);
        if (!ok) {
          this.state = 'waiting-for-lock';
          await qr.release();
          qr = null;
          await this.pause(this.options.lockRetryMs);
          continue;
        }
        this.state = 'running';
        await checkpoints.ensure(qr.manager, name);
        await checkpoints.setOwner(qr.manager, name, this.owner);
        // Follow the feed until stopped; a moved checkpoint (a rebuild swapped in) restarts from it.
        while (!this.stopping) {
          const moved = await this.follow(qr);
          if (!moved) break;
        }
      } catch (error) {
        this.options.onError?.(name, error);
        if (!this.stopping) await this.pause(Math.min(5000, this.options.lockRetryMs * 2));
      } finally {
        if (qr && !qr.isReleased) {
          await qr.query(`SELECT pg_advisory_unlock($1, hashtext($2))`, [LOCK_NAMESPACE.runner, name]).catch(() => undefined);
          await qr.release().catch(() => undefined);
        }
      }
    }
    this.state = 'stopped';
  }

  /** Returns true when the checkpoint moved under us and following must restart from it. */
  private async follow(qr: QueryRunner): Promise<boolean> {
    const name = this.projector.name;
    // ensure(): a migration may have removed the checkpoint (the projection starts over from zero).
    let current = (await checkpoints.ensure(qr.manager, name)).position;
    this.position = current;
    let moved = false;
    let failure: unknown = null;
    const handles = this.projector.handles;
    this.subscription = this.store.subscribeToAll({
      after: current,
      batchSize: this.options.batchSize,
      eventTypes: handles === 'all' ? undefined : handles,
      onBatch: async (events, next) => {
        if (comparePositions(next, current) <= 0) return;
        await this.applyBatch(qr, events, current, next);
        current = next;
        this.position = next;
        this.options.onBatchApplied?.(name, events.length, next);
      },
      onError: (error) => {
        if (error instanceof CheckpointMovedError) moved = true;
        else failure = error;
      },
    });
    await this.subscription.done;
    this.subscription = null;
    if (failure) throw failure;
    return moved;
  }

  private async applyBatch(qr: QueryRunner, events: readonly RecordedEvent[], from: FeedPosition, to: FeedPosition): Promise<void> {
    const name = this.projector.name;
    const consumer = this.projector;
    // A reactor's commands run first, outside the transaction: a crash before the checkpoint
    // commits gives the batch again (at least once; its commands are idempotent).
    if (isReactor(consumer) && events.length) await consumer.react(events);
    await qr.startTransaction();
    try {
      // Every statement of a batch is named: parsed and planned once per connection.
      const client = (qr as unknown as { databaseConnection: PoolClient }).databaseConnection;
      const query = async <R>(text: string, params: unknown[] = []) => (await preparedQuery(client, text, params)) as R[];
      // Read models are derived: their commits need not wait for the WAL flush (synchronous_commit
      // off for this transaction only). A crash can lose only whole recent batches, each with its
      // checkpoint, so they are applied again: nothing lost, nothing twice. Appends stay synchronous.
      await query(`SELECT pg_advisory_xact_lock_shared($1, hashtext($2)), set_config('synchronous_commit', 'off', true)`, [LOCK_NAMESPACE.swap, name]);
      if (!(await checkpoints.advance(query, name, from, to, events.length))) {
        throw new CheckpointMovedError(`checkpoint of ${name} moved (rebuilt elsewhere); restarting from it`);
      }
      if (events.length && !isReactor(consumer)) {
        await consumer.apply(events, { query, table: quoteIdent, rebuilding: false });
      }
      await qr.commitTransaction();
    } catch (error) {
      await qr.rollbackTransaction().catch(() => undefined);
      throw error;
    }
  }
}
