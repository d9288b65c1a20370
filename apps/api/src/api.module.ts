import { Module, type DynamicModule, type ModuleMetadata } from '@nestjs/common';
import { ConfigModule, type AppConfig } from '../../../libs/config/src';
import { DatabaseModule } from '../../../libs/database/src';
import { EventStoreModule } from '../../../libs/event-store/src';
import { ObservabilityModule } from '../../../libs/observability/src';
import { RedisModule } from '../../../libs/redis/src';

/** The HTTP API: composes the modules; each module owns its controllers. */
@Module({})
export class ApiModule {
  static forRoot(config: AppConfig, extra: ModuleMetadata['imports'] = []): DynamicModule {
    return {
      module: ApiModule,
      imports: [ConfigModule.forRoot(config), ObservabilityModule, DatabaseModule, RedisModule, EventStoreModule, ...extra],
    };
  }
}
