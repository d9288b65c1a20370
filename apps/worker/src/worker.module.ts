import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { ConfigModule, type AppConfig } from '@libs/config';
import { DatabaseModule } from '@libs/database';
import { EventStoreModule } from '@libs/event-store';
import { LoggingModule } from '@libs/observability';
import { ProjectionEngineModule } from '@libs/projection-engine';
import { RedisModule } from '@libs/redis';
import { WebhookDeliveryModule } from '@libs/webhooks';
import { ALL_PROJECTORS } from '@projections';

/**
 * Everything the worker runs, in one list (the worker process and `npm start` both run exactly this).
 *
 * Projectors and reactors (event feed → read models / side effects; one runner each, checkpoint
 * in the batch's transaction): ALL_PROJECTORS in projections/index.ts —
 *   event-type counts, opportunities, opportunity counts, opportunity outcomes,
 *   webhook deliveries (the dispatcher: domain events → delivery rows, the outbox).
 * Queue processors (BullMQ on libs/queue):
 *   {webhook-deliveries}  WebhookDeliveryModule: the outbox relay (rows → jobs), the signed delivery
 *                         attempt, the reconciler (re-enqueues deliveries Redis lost).
 * Schedules: none besides the relay's poll and the reconciler's period (WEBHOOKS_CONFIG).
 */
const WORKER_PARTS = (): (Type | DynamicModule)[] => [
  ProjectionEngineModule.forWorker(ALL_PROJECTORS),
  WebhookDeliveryModule,
];

/** The worker process: the infrastructure, then WORKER_PARTS. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [ConfigModule.forRoot(config), LoggingModule, DatabaseModule, RedisModule, EventStoreModule, ...WORKER_PARTS()],
    };
  }
}

/** WORKER_PARTS for a process that also serves the API (npm start), which provides the infrastructure. */
@Module({})
export class WorkerPartModule {
  static forRoot(): DynamicModule {
    return { module: WorkerPartModule, imports: WORKER_PARTS() };
  }
}
