import { Inject, Injectable, Logger, Module, type DynamicModule, type OnApplicationBootstrap, type BeforeApplicationShutdown, type Type } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@libs/config';
import { EVENT_STORE, EVENT_STORE_CONFIG, comparePositions, type EventStore, type EventStoreConfig, type FeedPosition } from '@libs/event-store';
import { PROJECTION_CONFIG, type ProjectionConfig } from './projection.config';
import type { ProjectorRunner, ConsumerGroup } from './projector-runner';
import { REACTORS, type Projector, type Reactor } from './projector';
import { ShardCoordinator } from './shard-coordinator';
import { projectionsReached } from './checkpoint-store';

/** Injection token: the projector groups a process runs (name → projectors). */
export const PROJECTOR_GROUPS = Symbol('PROJECTOR_GROUPS');
import { ProjectionMetrics, registerLagGauge } from './projection-metrics';

/**
 * Runs this process's share of every registered projector and reactor (the worker): one runner per
 * (projector group, shard) it holds (one connection, one feed read, one transaction per batch for
 * the group), and one per (reactor, shard) (a slow command never holds a group's read models
 * back); the ShardCoordinator shares the units with the other workers.
 */
@Injectable()
export class ProjectionRunnerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Projections');
  readonly coordinator: ShardCoordinator;
  private readonly names: string[];

  constructor(
    private readonly dataSource: DataSource,
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(PROJECTOR_GROUPS) groups: Readonly<Record<string, readonly Projector[]>>,
    @Inject(REACTORS) reactors: Reactor[],
    @InjectConfig(PROJECTION_CONFIG) config: ProjectionConfig,
    @InjectConfig(EVENT_STORE_CONFIG) feed: EventStoreConfig,
    metrics: ProjectionMetrics,
  ) {
    const consumers: ConsumerGroup[] = [
      ...Object.entries(groups).filter(([, members]) => members.length).map(([name, members]) => ({ name, members })),
      ...reactors.map((r) => ({ name: r.name, members: [r] })),
    ];
    this.names = consumers.flatMap((g) => g.members.map((m) => m.name));
    this.coordinator = new ShardCoordinator(dataSource, store, consumers, {
      shards: config.shards,
      rebalanceMs: config.rebalanceMs,
      batchSize: config.batchSize,
      lockRetryMs: Math.max(250, feed.subscriptionPollMs),
      onBatchApplied: (name, count, position) => metrics.batchApplied(name, count, position),
      onError: (name, error) => this.logger.error(`projector ${name}: ${(error as Error).message}`),
      onInterrupted: (name, error) => this.logger.log(`projector ${name}: stopped mid-batch by the shutdown, taken again at the next start (${(error as Error).message})`),
    });
    const counting = store as EventStore & { countEventsAfter?: (p: FeedPosition, cap?: number) => Promise<number> };
    if (counting.countEventsAfter) {
      const count = counting.countEventsAfter.bind(counting);
      registerLagGauge(async () =>
        Promise.all(
          this.runners
            .flatMap((r) => r.members)
            .filter((m) => m.position)
            .map(async (m) => ({ projector: m.checkpoint, lag: await count(m.position!, 1_000_000) })),
        ),
      );
    }
  }

  /** The runners of the units this process holds now. */
  get runners(): ProjectorRunner[] {
    return this.coordinator.runners;
  }

  onApplicationBootstrap(): void {
    const pool = (this.dataSource.options as { poolSize?: number }).poolSize;
    if (pool && this.coordinator.units.length + 1 > pool / 2) {
      this.logger.warn(
        `${this.coordinator.units.length} projection units (groups and reactors × PROJECTION_SHARDS) would hold ${this.coordinator.units.length + 1} of DATABASE_POOL_SIZE ${pool} connections if this worker ran alone: run more workers or raise DATABASE_POOL_SIZE`,
      );
    }
    this.coordinator.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.coordinator.stop();
  }

  /**
   * Resolves when every projector and reactor this process runs has reached `position` in every
   * shard, whichever worker holds it (or the timeout passes).
   */
  async waitFor(position: FeedPosition, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.runners.length && this.runners.every((r) => r.position && comparePositions(r.position, position) >= 0) && this.runners.length === this.coordinator.units.length) return true;
      if (await projectionsReached(this.dataSource, this.names, position)) return true;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return false;
  }
}

@Module({})
export class ProjectionEngineModule {
  /**
   * The worker's module: runs the given projector groups (name → projectors, plain objects) and
   * reactors (providers, so they can take a CommandBus; `imports`: the modules their dependencies
   * come from).
   */
  static forWorker(
    groups: Readonly<Record<string, readonly Projector[]>>,
    options: { reactors?: Type<Reactor>[]; imports?: (Type | DynamicModule)[] } = {},
  ): DynamicModule {
    const reactors = options.reactors ?? [];
    return {
      module: ProjectionEngineModule,
      imports: options.imports ?? [],
      providers: [
        { provide: PROJECTOR_GROUPS, useValue: groups },
        ...reactors,
        { provide: REACTORS, useFactory: (...instances: Reactor[]) => instances, inject: reactors },
        ProjectionMetrics,
        ProjectionRunnerService,
      ],
      exports: [ProjectionRunnerService],
    };
  }
}
