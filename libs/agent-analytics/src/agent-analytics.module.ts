import { Module } from '@nestjs/common';
import { APP_CONFIG, configSource, type AppConfig } from '@libs/config';
import { TenancyModule } from '@libs/tenancy';
import { BotVisitsController } from './bot-visits/bot-visits.http.controller';
import { BotsController } from './bots/bots.http.controller';
import { RetentionSchedule, VisitRetention } from './drop-expired-visits/visit-retention';
import { IngestVisitsController } from './ingest-visits/ingest-visits.http.controller';
import { LogIngestion } from './ingest-logs/log-ingestion';
import { OverviewController } from './overview/overview.http.controller';
import { PagesController } from './pages/pages.http.controller';
import { AgentReads } from './read-model/agent-reads';
import { BotRangesRefresher } from './refresh-bot-ranges/bot-ranges-refresher';
import { AgentScope } from './shared/agent-scope';
import { AGENT_INGESTION_PROVIDERS } from './shared/ingestion-providers';
import { VisitIngester } from './shared/visit-ingester';
import { AGENT_ANALYTICS_CONFIG, type AgentAnalyticsConfig } from './agent-analytics.config';
import { BatchIntake } from './ingest-visits/batch-intake';
import { IngestLane, IngestThreadLane, SameThreadLane } from './ingest-visits/ingest-lane';
import { VisitStore } from './shared/visit-store';
import { TrendsController } from './trends/trends.http.controller';
import { VisitsController } from './visits/visits.http.controller';
import { BotVisits } from './bot-visits/bot-visits.query';
import { AgentBots } from './bots/bots.query';
import { AgentOverview } from './overview/overview.query';
import { AgentPages } from './pages/pages.query';
import { AgentTrends } from './trends/trends.query';
import { AgentVisits } from './visits/visits.query';

export { AGENT_INGESTION_PROVIDERS };

/** Services the administration CLI runs (`logs ingest`, `bots refresh`, `logs retention`), with what they need. */
export const AGENT_CLI_PROVIDERS = [...AGENT_INGESTION_PROVIDERS, LogIngestion, BotRangesRefresher, VisitRetention];

/** The read use cases, each one call from a controller, the MCP server or any app (exported). */
const READS = [BotVisits, AgentBots, AgentOverview, AgentPages, AgentTrends, AgentVisits];

/** AI agents on customers' sites (DESIGN §13.2): ingestion and the reads, the API side. */
@Module({
  imports: [TenancyModule],
  controllers: [IngestVisitsController, BotVisitsController, OverviewController, VisitsController, BotsController, PagesController, TrendsController],
  providers: [
    ...AGENT_INGESTION_PROVIDERS,
    ...READS,
    AgentScope,
    AgentReads,
    BatchIntake,
    {
      // Batches are taken on a thread of their own unless AGENT_INGEST_THREAD=off (or the configuration was not loaded from variables a thread can load again).
      provide: IngestLane,
      inject: [APP_CONFIG, AGENT_ANALYTICS_CONFIG.token, BatchIntake],
      useFactory: (app: AppConfig, agent: AgentAnalyticsConfig, intake: BatchIntake): IngestLane => {
        const source = configSource(app);
        return agent.ingestThread && source ? new IngestThreadLane(source, app.shutdownTimeoutMs) : new SameThreadLane(intake);
      },
    },
  ],
  exports: [VisitIngester, VisitStore, ...READS],
})
export class AgentAnalyticsModule {}

/** The worker side: retention drops expired day partitions on a schedule. */
@Module({
  providers: [VisitRetention, RetentionSchedule],
})
export class AgentAnalyticsWorkerModule {}
