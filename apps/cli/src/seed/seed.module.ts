import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule, type AppConfig } from '@libs/config';
import { DatabaseModule } from '@libs/database';
import { EventStoreModule } from '@libs/event-store';
import { OpportunityCommandsModule } from '@libs/opportunities';
import { RedisModule } from '@libs/redis';

/** What seeding needs: the database, the event store and the opportunity commands (no HTTP). */
@Module({})
export class SeedModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: SeedModule, imports: [ConfigModule.forRoot(config), DatabaseModule, RedisModule, EventStoreModule, OpportunityCommandsModule] };
  }
}
