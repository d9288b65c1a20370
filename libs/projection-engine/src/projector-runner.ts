import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { DataSource, QueryRunner } from 'typeorm';
import { comparePositions, laterPosition, type EventStore, type FeedPosition, type RecordedEvent, type Subscription } from '@libs/event-store';
import type { PoolClient } from 'pg';
import { preparedQuery } from '@libs/sql';
import { LOCK_NAMESPACE } from './advisory-locks';
import { checkpoints, prepareShardCheckpoints } from './checkpoint-store';
import { isReactor, quoteIdent, type FeedConsumer } from './projector';
import { SINGLE_SHARD, eventShard, shardCheckpointName, unitName, type ShardSpec } from './shards';

/** A worker's name in checkpoints and shard ownership: host, pid and a random tag (two runners in one process differ). */
export const newOwnerId = () => `${hostname()}:${process.pid}:${randomBytes(2).toString('hex')}`;

export interface RunnerOptions {
  batchSize: number;
  /** How often a waiting process tries to take over the group. */
  lockRetryMs: number;
  onBatchApplied?: (projector: string, events: number, position: FeedPosition) => void;
  onError?: (projector: string, error: unknown) => void;
  /** A batch cut short because the process is stopping (given again at the next start): not a failure. */
  onInterrupted?: (projector: string, error: unknown) => void;
  /** The shard this runner serves (default: the only one). */
  shard?: ShardSpec;
  /** Its owner's name (default: a new one). */
  owner?: string;
  /** When the unit is held by another worker: stop (a coordinator tries another) instead of waiting for it. */
  giveUpWhenLocked?: boolean;
}

export type RunnerState = 'starting' | 'waiting-for-lock' | 'running' | 'stopped';

/** Projectors and reactors served by one feed read, one connection and one transaction per batch. */
export interface ConsumerGroup {
  readonly name: string;
  readonly members: readonly FeedConsumer[];
}

/** One member of a running group and the position of its checkpoint. */
export interface GroupMember {
  readonly consumer: FeedConsumer;
  /** Its checkpoint's (and runner lock's) name in this runner's shard. */
  readonly checkpoint: string;
  position: FeedPosition | null;
}

class CheckpointMovedError extends Error {
  override readonly name = 'CheckpointMovedError';
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs a group of projectors and reactors live (a single one is a group of one). Each member keeps
 * its own checkpoint and its own advisory lock, exactly as if it ran alone, so rebuilds, status
 * and a migration that resets one projection work per member; the group reads the feed once (from
 * its least advanced member, with the union of their event types) on one held connection, and
 * applies each batch in one transaction that moves every member's checkpoint with a
 * compare-and-set. Only one process at a time holds a group's locks (session level, on the
 * connection that runs the batches): the others wait and take over when the holder's connection
 * ends, as it does when its process dies. A crash at any point neither loses nor repeats a
 * projector's effect; a reactor's commands run before the transaction (at least once).
 *
 * Why groups: 25 projectors each holding a connection and reading the feed would hold 25
 * connections and read every event 25 times; a group per concern holds one and reads once.
 */
export class ProjectorRunner {
  state: RunnerState = 'starting';
  readonly owner: string;
  readonly shard: ShardSpec;
  /** `group#k/S`: the unit's lock key and its `projection_shard_owners` row. */
  readonly unit: string;
  readonly group: ConsumerGroup;
  readonly members: GroupMember[];
  private stopping = false;
  private subscription: Subscription | null = null;
  private loop: Promise<void> | null = null;
  private wakeSleep: (() => void) | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
    consumers: FeedConsumer | ConsumerGroup,
    private readonly options: RunnerOptions,
  ) {
    this.group = 'members' in consumers ? consumers : { name: consumers.name, members: [consumers] };
    if (!this.group.members.length) throw new Error(`projection group ${this.group.name} has no member`);
    const names = this.group.members.map((m) => m.name);
    if (new Set(names).size !== names.length) throw new Error(`projection group ${this.group.name} names a member twice`);
    this.shard = options.shard ?? SINGLE_SHARD;
    this.owner = options.owner ?? newOwnerId();
    this.unit = unitName(this.group.name, this.shard);
    this.members = this.group.members.map((consumer) => ({ consumer, checkpoint: shardCheckpointName(consumer.name, this.shard), position: null }));
  }

  /** The least advanced member's position (null until every member has read its checkpoint). */
  get position(): FeedPosition | null {
    let least: FeedPosition | null = null;
    for (const m of this.members) {
      if (!m.position) return null;
      if (!least || comparePositions(m.position, least) < 0) least = m.position;
    }
    return least;
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Finishes the batch in progress, releases the locks and returns. */
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

  /** The (namespace, name) of every lock the runner holds: the unit's, then each member's checkpoint's. */
  private locks(): [number, string][] {
    return [[LOCK_NAMESPACE.unit, this.unit], ...this.members.map((m): [number, string] => [LOCK_NAMESPACE.runner, m.checkpoint])];
  }

  /** Takes the unit's and every member's lock, or none. */
  private async lockAll(qr: QueryRunner): Promise<boolean> {
    const taken: [number, string][] = [];
    for (const [space, name] of this.locks()) {
      const [{ ok }] = await qr.query(`SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok`, [space, name]);
      if (!ok) {
        for (const [s, n] of taken) await qr.query(`SELECT pg_advisory_unlock($1, hashtext($2))`, [s, n]);
        return false;
      }
      taken.push([space, name]);
    }
    return true;
  }

  /** Records who owns the unit from now (rows of another shard count of the group go). */
  private async claimUnit(qr: QueryRunner): Promise<void> {
    await qr.query(`DELETE FROM projection_shard_owners WHERE group_name = $1 AND shard_count <> $2`, [this.group.name, this.shard.count]);
    await qr.query(
      `INSERT INTO projection_shard_owners (group_name, shard, shard_count, owner, since) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (group_name, shard) DO UPDATE SET shard_count = $3, owner = $4,
         since = CASE WHEN projection_shard_owners.owner IS NOT DISTINCT FROM $4 THEN projection_shard_owners.since ELSE now() END`,
      [this.group.name, this.shard.index, this.shard.count, this.owner],
    );
  }

  private async run(): Promise<void> {
    const name = this.group.name;
    while (!this.stopping) {
      let qr: QueryRunner | null = null;
      try {
        qr = this.dataSource.createQueryRunner();
        await qr.connect();
        if (!(await this.lockAll(qr))) {
          this.state = 'waiting-for-lock';
          await qr.release();
          qr = null;
          if (this.options.giveUpWhenLocked) break;
          await this.pause(this.options.lockRetryMs);
          continue;
        }
        // A worker lost without closing its socket (a machine gone) is noticed by the server's keepalives: about 25 s.
        await qr.query(`SELECT set_config('tcp_keepalives_idle', '10', false), set_config('tcp_keepalives_interval', '5', false), set_config('tcp_keepalives_count', '3', false)`);
        this.state = 'running';
        await this.claimUnit(qr);
        for (const m of this.members) {
          await prepareShardCheckpoints(qr.manager, m.consumer.name, this.shard.count);
          await checkpoints.setOwner(qr.manager, m.checkpoint, this.owner);
        }
        // Follow the feed until stopped; a moved checkpoint (a rebuild swapped in) restarts from it.
        while (!this.stopping) {
          const moved = await this.follow(qr);
          if (!moved) break;
        }
      } catch (error) {
        if (this.stopping) this.options.onInterrupted?.(name, error);
        else this.options.onError?.(name, error);
        if (!this.stopping) await this.pause(Math.min(5000, this.options.lockRetryMs * 2));
      } finally {
        if (qr && !qr.isReleased) {
          if (this.stopping) {
            await qr.query(`UPDATE projection_shard_owners SET owner = NULL, since = NULL WHERE group_name = $1 AND shard = $2 AND owner = $3`, [name, this.shard.index, this.owner]).catch(() => undefined);
          }
          for (const [space, lock] of this.locks().reverse()) {
            await qr.query(`SELECT pg_advisory_unlock($1, hashtext($2))`, [space, lock]).catch(() => undefined);
          }
          await qr.release().catch(() => undefined);
        }
      }
    }
    this.state = 'stopped';
  }

  /** Returns true when a checkpoint moved under us and following must restart from them. */
  private async follow(qr: QueryRunner): Promise<boolean> {
    // ensure(): a migration may have removed a checkpoint (that projection starts over from zero).
    for (const m of this.members) {
      await prepareShardCheckpoints(qr.manager, m.consumer.name, this.shard.count);
      m.position = (await checkpoints.get(qr.manager, m.checkpoint))!.position;
    }
    const from = this.position!;
    let moved = false;
    let failure: unknown = null;
    const types = new Set<string>();
    const all = this.members.some((m) => m.consumer.handles === 'all');
    if (!all) for (const m of this.members) for (const t of m.consumer.handles as readonly string[]) types.add(t);
    this.subscription = this.store.subscribeToAll({
      after: from,
      batchSize: this.options.batchSize,
      eventTypes: all ? undefined : [...types],
      onBatch: async (events, next) => {
        if (comparePositions(next, this.position!) <= 0) return;
        await this.applyBatch(qr, events, next);
      },
      onError: (error) => {
        if (error instanceof CheckpointMovedError) moved = true;
        else failure = error;
      },
    });
    // stop() may have come while this was reading checkpoints, before there was a subscription to
    // stop: the subscription would then follow the feed forever and the shutdown wait for it.
    if (this.stopping) await this.subscription.stop();
    await this.subscription.done;
    this.subscription = null;
    if (failure) throw failure;
    return moved;
  }

  /** The batch's events of this runner's shard a member has not applied yet and handles. */
  private eventsFor(member: GroupMember, events: readonly RecordedEvent[]): readonly RecordedEvent[] {
    const handles = member.consumer.handles;
    const after = member.position!;
    const { count, index } = this.shard;
    return events.filter((e) => comparePositions(e.position, after) > 0 && (handles === 'all' || handles.includes(e.type)) && (count <= 1 || eventShard(e, count) === index));
  }

  private async applyBatch(qr: QueryRunner, events: readonly RecordedEvent[], to: FeedPosition): Promise<void> {
    // Members already at or past `to` (ahead of the group's least advanced one) sit this batch out.
    const due = this.members.filter((m) => comparePositions(to, m.position!) > 0).map((m) => ({ member: m, events: this.eventsFor(m, events) }));
    if (!due.length) return;
    // A reactor's commands run first, outside the transaction: a crash before the checkpoint
    // commits gives the batch again (at least once; its commands are idempotent).
    for (const { member, events: mine } of due) {
      const consumer = member.consumer;
      if (isReactor(consumer) && mine.length) await consumer.react(mine);
    }
    await qr.startTransaction();
    try {
      // Every statement of a batch is named: parsed and planned once per connection.
      const client = (qr as unknown as { databaseConnection: PoolClient }).databaseConnection;
      const query = async <R>(text: string, params: unknown[] = []) => (await preparedQuery(client, text, params)) as R[];
      // Read models are derived: their commits need not wait for the WAL flush (synchronous_commit
      // off for this transaction only). A crash can lose only whole recent batches, each with its
      // checkpoints, so they are applied again: nothing lost, nothing twice. Appends stay synchronous.
      // The same statement takes each due member's swap lock (shared; a rebuild's swap takes it exclusively).
      await query(
        `SELECT set_config('synchronous_commit', 'off', true), (SELECT count(pg_advisory_xact_lock_shared($1, hashtext(n))) FROM unnest($2::text[]) AS n)`,
        [LOCK_NAMESPACE.swap, due.map((d) => d.member.checkpoint)],
      );
      for (const { member, events: mine } of due) {
        const consumer = member.consumer;
        if (!(await checkpoints.advance(query, member.checkpoint, member.position!, to, mine.length))) {
          throw new CheckpointMovedError(`checkpoint of ${consumer.name} moved (rebuilt elsewhere); restarting from it`);
        }
        if (mine.length && !isReactor(consumer)) await consumer.apply(mine, { query, table: quoteIdent, rebuilding: false });
      }
      await qr.commitTransaction();
    } catch (error) {
      await qr.rollbackTransaction().catch(() => undefined);
      throw error;
    }
    for (const { member, events: mine } of due) {
      member.position = laterPosition(member.position!, to);
      this.options.onBatchApplied?.(member.consumer.name, mine.length, to);
    }
  }
}
