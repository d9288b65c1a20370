import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule, type AppConfig } from '../../../../libs/config/src';
import { DatabaseModule } from '../../../../libs/database/src';
import { EventStoreModule } from '../../../../libs/event-store/src';
import { OpportunityCommandsModule } from '../../../../libs/opportunities/src';
import { RedisModule } from '../../../../libs/redis/src';

/** What seeding needs: the database, the event store and the opportunity commands (no HTTP). */
@Module({})
export class SeedModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: SeedModule, imports: [ConfigModule.forRoot(config), DatabaseModule, RedisModule, EventStoreModule, OpportunityCommandsModule] };
  }
}
