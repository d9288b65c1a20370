import type { DataSource, QueryRunner } from 'typeorm';
import type { EventStore } from '@libs/event-store';
import { LOCK_NAMESPACE } from './advisory-locks';
import { ProjectorRunner, newOwnerId, type ConsumerGroup, type RunnerOptions } from './projector-runner';
import { shardOf, unitName, type ShardSpec } from './shards';

export interface CoordinatorOptions extends Omit<RunnerOptions, 'shard' | 'owner' | 'giveUpWhenLocked'> {
  /** PROJECTION_SHARDS: each group runs in this many shards. */
  shards: number;
  /** How often the share is recomputed, dead workers' units taken and surplus ones released. */
  rebalanceMs: number;
  owner?: string;
}

interface Unit {
  readonly group: ConsumerGroup;
  readonly shard: ShardSpec;
  readonly name: string;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Shares the (group, shard) units between the worker processes (DESIGN §18). Each worker holds a
 * presence lock on a connection of its own; every `rebalanceMs` it counts the live workers (their
 * presence locks in `pg_locks`), computes its fair share, ceil(units / workers), takes free units
 * (no holder of their unit lock) up to it and releases the surplus (a runner finishes its batch
 * and unlocks). A unit is run by a ProjectorRunner holding its locks on its own connection, so a
 * worker that dies (its connections close) frees its units at once, and the others take them at
 * their next rebalance: within `rebalanceMs` after PostgreSQL notices (at once for a killed
 * process; the keepalives, about 25 s, for a machine lost).
 */
export class ShardCoordinator {
  readonly owner: string;
  readonly units: readonly Unit[];
  private readonly running = new Map<string, ProjectorRunner>();
  private presence: QueryRunner | null = null;
  private stopping = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
    groups: readonly ConsumerGroup[],
    private readonly options: CoordinatorOptions,
  ) {
    this.owner = options.owner ?? newOwnerId();
    const count = Math.max(1, options.shards);
    this.units = groups.flatMap((group) => Array.from({ length: count }, (_, index) => ({ group, shard: { index, count }, name: unitName(group.name, { index, count }) })));
  }

  /** The runners of the units this worker holds now. */
  get runners(): ProjectorRunner[] {
    return [...this.running.values()];
  }

  start(): void {
    this.loop ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
    await Promise.all(this.runners.map((r) => r.stop()));
    this.running.clear();
    if (this.presence && !this.presence.isReleased) await this.presence.release().catch(() => undefined);
    this.presence = null;
  }

  /** One rebalance now (tests; the loop calls it every rebalanceMs). */
  async rebalance(): Promise<void> {
    for (const [name, r] of this.running) if (r.state === 'stopped') this.running.delete(name);
    const presence = await this.presenceConnection();
    const [{ workers }] = await presence.query(
      `SELECT count(*)::int AS workers FROM pg_locks l JOIN pg_database d ON d.oid = l.database AND d.datname = current_database()
        WHERE l.locktype = 'advisory' AND l.classid = $1 AND l.objsubid = 2 AND l.granted`,
      [LOCK_NAMESPACE.worker],
    );
    const share = Math.ceil(this.units.length / Math.max(1, workers));
    const held = this.runners;
    if (held.length > share) {
      for (const r of held.slice(share)) {
        this.running.delete(r.unit);
        void r.stop();
      }
      return;
    }
    if (held.length === share) return;
    const freeRows: { unit: string }[] = await presence.query(
      `SELECT u AS unit FROM unnest($1::text[]) AS u WHERE NOT EXISTS (
         SELECT 1 FROM pg_locks l JOIN pg_database d ON d.oid = l.database AND d.datname = current_database()
          WHERE l.locktype = 'advisory' AND l.classid = $2 AND l.objsubid = 2 AND l.objid::bigint = (hashtext(u)::bigint & 4294967295))`,
      [this.units.map((u) => u.name), LOCK_NAMESPACE.unit],
    );
    const free = new Set(freeRows.map((r) => r.unit));
    // Each worker starts its search at its own place, so joining workers do not all reach for the same units.
    const offset = shardOf(this.owner, this.units.length);
    const order = this.units.map((_, i) => this.units[(i + offset) % this.units.length]);
    let wanted = share - held.length;
    for (const unit of order) {
      if (wanted <= 0) break;
      if (!free.has(unit.name) || this.running.has(unit.name)) continue;
      const runner = new ProjectorRunner(this.dataSource, this.store, unit.group, { ...this.options, shard: unit.shard, owner: this.owner, giveUpWhenLocked: true });
      this.running.set(unit.name, runner);
      runner.start();
      wanted--;
    }
  }

  private async presenceConnection(): Promise<QueryRunner> {
    if (this.presence && !this.presence.isReleased) {
      try {
        await this.presence.query('SELECT 1');
        return this.presence;
      } catch {
        await this.presence.release().catch(() => undefined);
      }
    }
    const qr = this.dataSource.createQueryRunner();
    await qr.connect();
    await qr.query(`SELECT pg_advisory_lock($1, hashtext($2))`, [LOCK_NAMESPACE.worker, this.owner]);
    this.presence = qr;
    return qr;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      try {
        await this.rebalance();
      } catch (error) {
        this.options.onError?.('shards', error);
      }
      await Promise.race([sleep(this.options.rebalanceMs), new Promise<void>((resolve) => (this.wake = resolve))]);
      this.wake = null;
    }
  }
}
