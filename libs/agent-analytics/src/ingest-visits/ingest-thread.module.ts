import { Module, type DynamicModule } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ConfigModule, type AppConfig } from '@libs/config';
import { createDataSource, DataSourceCloser } from '@libs/database';
import { TenancyRepository } from '@libs/tenancy';
import { AGENT_ANALYTICS_CONFIG, type AgentAnalyticsConfig } from '../agent-analytics.config';
import { AGENT_INGESTION_PROVIDERS } from '../shared/ingestion-providers';
import { BatchIntake } from './batch-intake';

/**
 * What the ingestion thread runs on (`ingest.thread.ts`): its configuration, a pool of its own
 * (the AGENT_INGEST_CONNECTIONS batches it writes at once, and two for partitions and lookups),
 * tenancy's brands, and ingestion (AGENT_INGESTION_PROVIDERS, BatchIntake).
 */
@Module({})
export class IngestThreadModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: IngestThreadModule,
      imports: [ConfigModule.forRoot(config)],
      providers: [
        {
          provide: DataSource,
          inject: [AGENT_ANALYTICS_CONFIG.token],
          useFactory: (agent: AgentAnalyticsConfig) => createDataSource(config.databaseUrl, agent.ingestConnections + 2).initialize(),
        },
        DataSourceCloser,
        TenancyRepository,
        ...AGENT_INGESTION_PROVIDERS,
        BatchIntake,
      ],
    };
  }
}
