import { Module } from '@nestjs/common';
import { QueueModule } from '@libs/queue';
import { QuotaModule } from '@libs/rate-limit';
import { TenancyModule } from '@libs/tenancy';
import { AddBrandPromptController } from './add-brand-prompt/add-brand-prompt.http.controller';
import { AnswerQuestionProcessor } from './answer-questions/answer-question.processor';
import { RunProgress } from './answer-questions/run-progress';
import { GetAnalysisRunController } from './get-analysis-run/get-analysis-run.http.controller';
import { ListAnalysisResultsController } from './list-analysis-results/list-analysis-results.http.controller';
import { ListAnalysisRunsController } from './list-analysis-runs/list-analysis-runs.http.controller';
import { ListBrandPromptsController } from './list-brand-prompts/list-brand-prompts.http.controller';
import { ListRunResultsController } from './list-run-results/list-run-results.http.controller';
import { AnalysisReads } from './read-model/analysis-reads';
import { RemoveBrandPromptController } from './remove-brand-prompt/remove-brand-prompt.http.controller';
import { RequestAuditController } from './request-audit/request-audit.http.controller';
import { RequestAudit } from './request-audit/request-audit.handler';
import { Engines } from './shared/engines/engine-registry';
import { RunRequests } from './shared/run-requests';
import { SpendLedger } from './shared/spend-ledger';
import { TrackedBrands } from './shared/tracked-brands';
import { TrackedPromptsRepository } from './tracked-prompts.repository';
import { AnswerScope } from './shared/answer-scope';
import { RunScheduler } from './schedule-runs/run-scheduler';
import { UpdateBrandPromptController } from './update-brand-prompt/update-brand-prompt.http.controller';
import { BrandFactsRepository } from './brand-facts.repository';
import { BudgetsRepository } from './budgets.repository';
import { GetBudgetsController } from './get-budgets/get-budgets.http.controller';
import { SetBudgetsController } from './set-budgets/set-budgets.http.controller';
import { CostReads } from './read-model/cost-reads';
import { GetBrandFactsController } from './get-brand-facts/get-brand-facts.http.controller';
import { PutBrandFactsController } from './put-brand-facts/put-brand-facts.http.controller';
import { AnswerJudge } from './shared/judge/answer-judge';
import { JudgeSettingsRepository } from './shared/judge/judge-settings.repository';
import { ListRunResults } from './list-run-results/list-run-results.query';
import { ListAnalysisRuns } from './list-analysis-runs/list-analysis-runs.query';
import { ListAnalysisResults } from './list-analysis-results/list-analysis-results.query';
import { GetAnalysisRun } from './get-analysis-run/get-analysis-run.query';

/** The read use cases, each one call from a controller, the MCP server or any app (exported). */
const READS = [ListRunResults, ListAnalysisRuns, ListAnalysisResults, GetAnalysisRun];

/** What answers cost, computed when read (the run's cost, and /usage's cost per day). */
@Module({ providers: [CostReads], exports: [CostReads] })
export class AnalysisCostModule {}

/** What the service asks the AI engines and what they answered (DESIGN §13.1): the API side (audit requests count against the organisation's quota). */
@Module({
  imports: [TenancyModule, QuotaModule, AnalysisCostModule],
  controllers: [
    ListBrandPromptsController,
    AddBrandPromptController,
    UpdateBrandPromptController,
    RemoveBrandPromptController,
    RequestAuditController,
    ListAnalysisRunsController,
    GetAnalysisRunController,
    ListRunResultsController,
    ListAnalysisResultsController,
    GetBrandFactsController,
    PutBrandFactsController,
    GetBudgetsController,
    SetBudgetsController,
  ],
  providers: [...READS, TrackedPromptsRepository, RunRequests, AnalysisReads, BrandFactsRepository, BudgetsRepository, SpendLedger, AnswerScope, RequestAudit],
  exports: [...READS, TrackedPromptsRepository, RunRequests, BrandFactsRepository, BudgetsRepository, AnalysisCostModule, AnswerScope, RequestAudit],
})
export class AnalysisModule {}

/**
 * The worker side: the dispatch reactor (requested runs → one job per question), the answer
 * processor (one queue per provider: ask, record, analyse, count) and the engines.
 */
@Module({
  imports: [TenancyModule, QueueModule],
  providers: [Engines, TrackedBrands, BrandFactsRepository, RunProgress, SpendLedger, JudgeSettingsRepository, AnswerJudge, AnswerQuestionProcessor, RunRequests, TrackedPromptsRepository, RunScheduler],
  // QueueModule: the dispatch reactor is built in the projection engine's module from these exports.
  exports: [QueueModule, Engines, RunRequests, TrackedPromptsRepository, RunScheduler],
})
export class AnalysisWorkerModule {}
