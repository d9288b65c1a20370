import { Module, type DynamicModule } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiKeysRepository, OAuthClientsRepository } from '@libs/auth';
import { APP_CONFIG, ConfigModule, type AppConfig } from '@libs/config';
import { createDataSource, DataSourceCloser } from '@libs/database';
import { EVENT_STORE, EventStoreModule, type EventStore } from '@libs/event-store';
import { AnswerJudge, AnswerReanalyzer, BrandFactsRepository, BudgetsRepository, JudgeBackfill, JudgeSettingsRepository, SpendLedger, TrackedBrands, TrackedPromptsRepository } from '@libs/analysis';
import { BrandIndexWeightsRepository, RollupReads, VisibilityReport } from '@libs/visibility';
import { ChannelCreator, ChannelSources, ChannelSyncer, ChannelsRepository, CredentialsBox, MetricsImporter } from '@libs/channels';
import { PROJECTION_CONFIG, ProjectionRebuilder, type ProjectionConfig } from '@libs/projection-engine';
import { BrandAccess, TenancyRepository } from '@libs/tenancy';
import { PageAuditRequests, PageAuditsRepository } from '@libs/page-audits';
import { QueueModule } from '@libs/queue';
import { OrganizationQuotas } from '@libs/rate-limit';
import { DetectorThresholdsRepository } from '@libs/detectors';
import { AGENT_CLI_PROVIDERS } from '@libs/agent-analytics';
import { BrandRollupRebuilds } from '@projections';

/** The CLI's own DataSource: 4 connections, no retry loop (a command against an unreachable database fails at once). */
async function openDataSource(config: AppConfig): Promise<DataSource> {
  return createDataSource(config.databaseUrl, 4).initialize();
}

/**
 * What administration commands run on (apps/cli): the configuration, the database, the event
 * store, and the services of the modules whose use cases the CLI starts. Commands take them from
 * the application context (`ctx.get(TenancyRepository)`), never build them by hand.
 */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [ConfigModule.forRoot(config), EventStoreModule, QueueModule],
      providers: [
        { provide: DataSource, inject: [APP_CONFIG], useFactory: openDataSource },
        DataSourceCloser,
        TenancyRepository,
        TrackedPromptsRepository,
        TrackedBrands,
        BrandAccess,
        BrandFactsRepository,
        BudgetsRepository,
        AnswerReanalyzer,
        JudgeSettingsRepository,
        SpendLedger,
        AnswerJudge,
        JudgeBackfill,
        RollupReads,
        VisibilityReport,
        ChannelsRepository,
        MetricsImporter,
        CredentialsBox,
        ChannelCreator,
        ChannelSources,
        ChannelSyncer,
        BrandIndexWeightsRepository,
        DetectorThresholdsRepository,
        ApiKeysRepository,
        OAuthClientsRepository,
        PageAuditsRepository,
        PageAuditRequests,
        OrganizationQuotas,
        ...AGENT_CLI_PROVIDERS,
        BrandRollupRebuilds,
        {
          provide: ProjectionRebuilder,
          inject: [DataSource, EVENT_STORE, PROJECTION_CONFIG.token],
          useFactory: (ds: DataSource, store: EventStore, c: ProjectionConfig) => new ProjectionRebuilder(ds, store, c.batchSize * 5, c.shards),
        },
      ],
    };
  }
}
