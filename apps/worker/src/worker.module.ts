import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule, type AppConfig } from '@libs/config';
import { DatabaseModule } from '@libs/database';
import { EventStoreModule } from '@libs/event-store';
import { LoggingModule } from '@libs/observability';
import { ProjectionEngineModule } from '@libs/projection-engine';
import { RedisModule } from '@libs/redis';
import { WebhookDeliveryModule } from '@libs/webhooks';
import { ALL_PROJECTORS } from '@projections';

/** Background work: projectors (and, later, queues and schedules). */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggingModule,
        DatabaseModule,
        RedisModule,
        EventStoreModule,
        ProjectionEngineModule.forWorker(ALL_PROJECTORS),
        WebhookDeliveryModule,
      ],
    };
  }
}

/** The worker's part for a process that also serves the API (npm start). */
@Module({})
export class WorkerPartModule {
  static forRoot(): DynamicModule {
    return { module: WorkerPartModule, imports: [ProjectionEngineModule.forWorker(ALL_PROJECTORS), WebhookDeliveryModule] };
  }
}
