import { Module, type DynamicModule } from '@nestjs/common';
import { ApiKeysRepository } from '@libs/auth';
import { ConfigModule, type AppConfig } from '@libs/config';
import { DatabaseModule } from '@libs/database';
import { EventStoreModule } from '@libs/event-store';
import { OpportunityCommandsModule } from '@libs/opportunities';
import { RedisModule } from '@libs/redis';
import { TenancyRepository } from '@libs/tenancy';
import { AnswerHistorySeeder, TrackedPromptsRepository } from '@libs/analysis';
import { ChannelsRepository, MetricsImporter } from '@libs/channels';
import { VisitStore } from '@libs/agent-analytics';
import { DetectorPassModule } from '@libs/detectors';
import { ProjectionEngineModule } from '@libs/projection-engine';
import { PROJECTOR_GROUPS } from '@projections';

/**
 * What seeding needs: the database, the event store, tenancy and keys, the opportunity commands,
 * prompts and the answer-history seeder, channel imports, AI-agent visits, and for the closed loop's story the
 * detector pass with the read models it reads (answers and opportunities) projected here (no HTTP).
 */
@Module({})
export class SeedModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: SeedModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule,
        RedisModule,
        EventStoreModule,
        OpportunityCommandsModule,
        DetectorPassModule,
        ProjectionEngineModule.forWorker({ analysis: PROJECTOR_GROUPS.analysis, opportunities: PROJECTOR_GROUPS.opportunities }),
      ],
      providers: [TenancyRepository, ApiKeysRepository, TrackedPromptsRepository, AnswerHistorySeeder, ChannelsRepository, MetricsImporter, VisitStore],
    };
  }
}
