import { Module } from '@nestjs/common';
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
import { BotRanges } from './shared/bot-ranges';
import { BotVerifier } from './shared/bot-verifier';
import { SiteRobots } from './shared/site-robots';
import { VisitIngester } from './shared/visit-ingester';
import { VisitStore } from './shared/visit-store';
import { WebBotAuth } from './shared/web-bot-auth';
import { AgentEgress } from './shared/agent-egress';
import { TrendsController } from './trends/trends.http.controller';
import { VisitsController } from './visits/visits.http.controller';
import { BotVisits } from './bot-visits/bot-visits.query';
import { AgentBots } from './bots/bots.query';
import { AgentOverview } from './overview/overview.query';
import { AgentPages } from './pages/pages.query';
import { AgentTrends } from './trends/trends.query';
import { AgentVisits } from './visits/visits.query';

/** What ingestion needs: classification, verification, robots.txt, storage (the API, the CLI and the worker share it). */
export const AGENT_INGESTION_PROVIDERS = [AgentEgress, BotRanges, WebBotAuth, BotVerifier, SiteRobots, VisitIngester, VisitStore];

/** Services the administration CLI runs (`logs ingest`, `bots refresh`, `logs retention`), with what they need. */
export const AGENT_CLI_PROVIDERS = [...AGENT_INGESTION_PROVIDERS, LogIngestion, BotRangesRefresher, VisitRetention];

/** The read use cases, each one call from a controller, the MCP server or any app (exported). */
const READS = [BotVisits, AgentBots, AgentOverview, AgentPages, AgentTrends, AgentVisits];

/** AI agents on customers' sites (DESIGN §13.2): ingestion and the reads, the API side. */
@Module({
  imports: [TenancyModule],
  controllers: [IngestVisitsController, BotVisitsController, OverviewController, VisitsController, BotsController, PagesController, TrendsController],
  providers: [...AGENT_INGESTION_PROVIDERS, ...READS, AgentScope, AgentReads],
  exports: [VisitIngester, VisitStore, ...READS],
})
export class AgentAnalyticsModule {}

/** The worker side: retention drops expired day partitions on a schedule. */
@Module({
  providers: [VisitRetention, RetentionSchedule],
})
export class AgentAnalyticsWorkerModule {}
