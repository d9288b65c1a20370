import { Inject, Injectable, Logger, Module, type DynamicModule, type OnApplicationBootstrap, type BeforeApplicationShutdown, type Type } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@libs/config';
import { EVENT_STORE, comparePositions, type EventStore, type FeedPosition } from '@libs/event-store';
import { ProjectorRunner } from './projector-runner';
import { PROJECTORS, REACTORS, type Projector, type Reactor } from './projector';
import { ProjectionMetrics, registerLagGauge } from './projection-metrics';

/** Runs every registered projector and reactor in this process (the worker), one runner each. */
@Injectable()
export class ProjectionRunnerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Projections');
  readonly runners: ProjectorRunner[];

  constructor(
    dataSource: DataSource,
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(PROJECTORS) projectors: Projector[],
    @Inject(REACTORS) reactors: Reactor[],
    @Inject(APP_CONFIG) config: AppConfig,
    metrics: ProjectionMetrics,
  ) {
    this.runners = [...projectors, ...reactors].map(
      (p) =>
        new ProjectorRunner(dataSource, store, p, {
          batchSize: config.projectionBatchSize,
          lockRetryMs: Math.max(250, config.projectionPollMs),
          onBatchApplied: (name, count, position) => metrics.batchApplied(name, count, position),
          onError: (name, error) => this.logger.error(`projector ${name}: ${(error as Error).message}`),
        }),
    );
    const counting = store as EventStore & { countEventsAfter?: (p: FeedPosition, cap?: number) => Promise<number> };
    if (counting.countEventsAfter) {
      const count = counting.countEventsAfter.bind(counting);
      registerLagGauge(async () =>
        Promise.all(
          this.runners
            .filter((r) => r.position)
            .map(async (r) => ({ projector: r.projector.name, lag: await count(r.position!, 1_000_000) })),
        ),
      );
    }
  }

  onApplicationBootstrap(): void {
    for (const r of this.runners) r.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.runners.map((r) => r.stop()));
  }

  /** Resolves when every projector running here has reached `position` (or the timeout passes). */
  async waitFor(position: FeedPosition, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.runners.every((r) => r.position && comparePositions(r.position, position) >= 0)) return true;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return false;
  }
}

@Module({})
export class ProjectionEngineModule {
  /**
   * The worker's module: runs the given projectors (plain objects) and reactors (providers, so
   * they can take a CommandBus; `imports`: the modules their dependencies come from).
   */
  static forWorker(projectors: Projector[], options: { reactors?: Type<Reactor>[]; imports?: (Type | DynamicModule)[] } = {}): DynamicModule {
    const reactors = options.reactors ?? [];
    return {
      module: ProjectionEngineModule,
      imports: options.imports ?? [],
      providers: [
        { provide: PROJECTORS, useValue: projectors },
        ...reactors,
        { provide: REACTORS, useFactory: (...instances: Reactor[]) => instances, inject: reactors },
        ProjectionMetrics,
        ProjectionRunnerService,
      ],
      exports: [ProjectionRunnerService, PROJECTORS],
    };
  }
}
