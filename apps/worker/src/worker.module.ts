import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule, type AppConfig } from '../../../libs/config/src';
import { DatabaseModule } from '../../../libs/database/src';
import { EventStoreModule } from '../../../libs/event-store/src';
import { LoggingModule } from '../../../libs/observability/src';
import { ProjectionEngineModule } from '../../../libs/projection-engine/src';
import { RedisModule } from '../../../libs/redis/src';
import { WebhookDeliveryModule } from '../../../libs/webhooks/src';
import { ALL_PROJECTORS } from '../../../projections';

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
