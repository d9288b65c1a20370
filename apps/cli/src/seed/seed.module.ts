import { Module, type DynamicModule } from '@nestjs/common';
import { ApiKeysRepository } from '@libs/auth';
import { ConfigModule, type AppConfig } from '@libs/config';
import { DatabaseModule } from '@libs/database';
import { EventStoreModule } from '@libs/event-store';
import { OpportunityCommandsModule } from '@libs/opportunities';
import { RedisModule } from '@libs/redis';
import { TenancyRepository } from '@libs/tenancy';
import { AnswerHistorySeeder, TrackedPromptsRepository } from '@libs/analysis';

/** What seeding needs: the database, the event store, tenancy and keys, the opportunity commands, prompts and the answer-history seeder (no HTTP). */
@Module({})
export class SeedModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: SeedModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule, RedisModule, EventStoreModule, OpportunityCommandsModule],
      providers: [TenancyRepository, ApiKeysRepository, TrackedPromptsRepository, AnswerHistorySeeder],
    };
  }
}
