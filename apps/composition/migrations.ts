import { CreateEventStore1763700000000 } from '@libs/event-store';
import { CreateProjectionCheckpoints1763700000100, CreateProjectionShardOwners1795788827059 } from '@libs/projection-engine';
import { AddExtraDomains1763700006050, CreateTenancy1763700001000 } from '@libs/tenancy';
import { AuthorizationCodeFamilies1763700005000, CreateAccess1763700001100 } from '@libs/auth';
import { CreateApiUsage1763700001200 } from '@libs/usage';
import { CreateWebhooks1763700003000 } from '@libs/webhooks';
import { AddPromptMarkets1795788895100, CreateAnalysisRunIds1763700006100, CreateBrandFacts1763700006300, AddJudgeSpend1795793109500, CreateBudgets1795788897100, CreateSentimentJudge1795788745800, CreateTrackedPrompts1763700006000 } from '@libs/analysis';
import { CreateBrandIndexWeights1763700007100 } from '@libs/visibility';
import { AddPageTotals1763700009100, CreateAgentAnalytics1763700009000, ScopeIngestKeysByCredential1763700009250 } from '@libs/agent-analytics';
import { AddPageAuditReasonCodes1763700013500, CreatePageAudits1763700011000 } from '@libs/page-audits';
import { CreateOrganizationQuotas1763700013400 } from '@libs/rate-limit';
import { CreateDetectorThresholds1763700012000, CreatePageGapChecks1763700012200 } from '@libs/detectors';
import { AddContentBrandIndex1763700010100, CreateChannels1763700010000, ScopeImportKeysByCredential1763700010250 } from '@libs/channels';
import { ANALYSIS_MIGRATIONS, CITATION_MIGRATIONS, DETECTOR_MIGRATIONS, OPERATIONS_MIGRATIONS, OPPORTUNITY_MIGRATIONS, VISIBILITY_MIGRATIONS, WEBHOOK_MIGRATIONS } from '@projections';

/**
 * Every migration of the service, in the order they run. Each module owns its migrations (beside
 * its code: `libs/<concern>/src/migrations/`, `projections/<concern>/migrations/`); the
 * composition root alone knows them all, so no library imports another's tables.
 */
export const ALL_MIGRATIONS = [
  CreateEventStore1763700000000,
  CreateProjectionCheckpoints1763700000100,
  ...OPERATIONS_MIGRATIONS,
  CreateTenancy1763700001000,
  CreateAccess1763700001100,
  CreateApiUsage1763700001200,
  OPPORTUNITY_MIGRATIONS.create,
  CreateWebhooks1763700003000,
  OPPORTUNITY_MIGRATIONS.documents,
  OPPORTUNITY_MIGRATIONS.dueBuckets,
  OPPORTUNITY_MIGRATIONS.clientIds,
  AuthorizationCodeFamilies1763700005000,
  WEBHOOK_MIGRATIONS.opportunityStates,
  CreateTrackedPrompts1763700006000,
  AddExtraDomains1763700006050,
  CreateAnalysisRunIds1763700006100,
  ANALYSIS_MIGRATIONS.create,
  CreateBrandFacts1763700006300,
  VISIBILITY_MIGRATIONS.rollups,
  CreateBrandIndexWeights1763700007100,
  CITATION_MIGRATIONS.create,
  CreateDetectorThresholds1763700012000,
  OPPORTUNITY_MIGRATIONS.outcomeMentionRates,
  CreatePageAudits1763700011000,
  CreateAgentAnalytics1763700009000,
  AddPageTotals1763700009100,
  CreateChannels1763700010000,
  AddContentBrandIndex1763700010100,
  CreatePageGapChecks1763700012200,
  ScopeIngestKeysByCredential1763700009250,
  ScopeImportKeysByCredential1763700010250,
  CreateOrganizationQuotas1763700013400,
  AddPageAuditReasonCodes1763700013500,
  VISIBILITY_MIGRATIONS.labellers,
  CreateSentimentJudge1795788745800,
  CreateProjectionShardOwners1795788827059,
  AddPromptMarkets1795788895100,
  ANALYSIS_MIGRATIONS.markets,
  VISIBILITY_MIGRATIONS.markets,
  CITATION_MIGRATIONS.markets,
  CreateBudgets1795788897100,
  ANALYSIS_MIGRATIONS.usage,
  DETECTOR_MIGRATIONS.answerFacts,
  CITATION_MIGRATIONS.labellers,
  ANALYSIS_MIGRATIONS.usageMarkets,
  DETECTOR_MIGRATIONS.markets,
  AddJudgeSpend1795793109500,
  ANALYSIS_MIGRATIONS.judgeUsage,
  DETECTOR_MIGRATIONS.seriesRead,
  VISIBILITY_MIGRATIONS.sourcesBrandIndex,
  VISIBILITY_MIGRATIONS.providerRollups,
  CITATION_MIGRATIONS.dailyRollups,
];
