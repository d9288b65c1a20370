import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { ConfigModule, type AppConfig } from '@libs/config';
import { DatabaseModule } from '@libs/database';
import { EventStoreModule } from '@libs/event-store';
import { LoggingModule } from '@libs/observability';
import { ProjectionEngineModule } from '@libs/projection-engine';
import { RedisModule } from '@libs/redis';
import { WebhookDeliveryModule } from '@libs/webhooks';
import { AnalysisWorkerModule, AnswerDispatchReactor } from '@libs/analysis';
import { PROJECTOR_GROUPS, RollupRebuildWorkerModule } from '@projections';
import { DetectorsReactor, DetectorsWorkerModule } from '@libs/detectors';
import { ChannelsWorkerModule } from '@libs/channels';
import { AgentAnalyticsWorkerModule } from '@libs/agent-analytics';
import { PageAuditsWorkerModule } from '@libs/page-audits';

/**
 * Everything the worker runs, in one list (the worker process and `npm start` both run exactly this).
 *
 * Projectors (event feed → read models; one runner per group: one connection, one feed read and
 * one transaction per batch, every projector's checkpoint in it): PROJECTOR_GROUPS in
 * projections/index.ts —
 *   operations:    event-type counts;
 *   opportunities: opportunities (list and single read), opportunity counts, opportunity outcomes;
 *   webhooks:      webhook deliveries (the dispatcher: domain events → delivery rows, the outbox);
 *   analysis:      analysis runs, results, answer entities, answer citations.
 * Reactors (event feed → idempotent commands, at least once; a runner each):
 *   answer-dispatch  a requested run → one job per (query, provider) on that provider's queue.
 *   detectors        completed runs → per brand: verify fixes, open what the detectors report,
 *                    finalise due outcomes (libs/detectors; DetectorsWorkerModule also sweeps outcomes).
 * Queue processors (BullMQ on libs/queue):
 *   {answers-<provider>}  AnalysisWorkerModule: ask the engine, record the answer (once), analyse it,
 *                         count the run's progress and complete it.
 *   {webhook-deliveries}  WebhookDeliveryModule: the outbox relay (rows → jobs), the signed delivery
 *                         attempt, the reconciler (re-enqueues deliveries Redis lost).
 *   {page-audits}         PageAuditsWorkerModule: plan an audit (its URLs or sitemap), audit each page
 *                         (robots.txt, paced guarded fetch, score, record once).
 *   {rollup-rebuilds}     RollupRebuildWorkerModule: one brand's rollups recomputed under its shard's
 *                         projector lock (`projections rebuild answer_rollups --per-brand`).
 * Schedules: the relay's poll and the reconciler's period (WEBHOOKS_CONFIG); agent-analytics
 *   retention (AgentAnalyticsWorkerModule: drops expired day partitions of bot_visits).
 */
const WORKER_PARTS = (): (Type | DynamicModule)[] => [
  ProjectionEngineModule.forWorker(PROJECTOR_GROUPS, { reactors: [AnswerDispatchReactor, DetectorsReactor], imports: [AnalysisWorkerModule, DetectorsWorkerModule] }),
  AnalysisWorkerModule,
  WebhookDeliveryModule,
  ChannelsWorkerModule,
  AgentAnalyticsWorkerModule,
  PageAuditsWorkerModule,
  RollupRebuildWorkerModule,
];

/** The worker process: the infrastructure, then WORKER_PARTS. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [ConfigModule.forRoot(config), LoggingModule, DatabaseModule, RedisModule, EventStoreModule, ...WORKER_PARTS()],
    };
  }
}

/** WORKER_PARTS for a process that also serves the API (npm start), which provides the infrastructure. */
@Module({})
export class WorkerPartModule {
  static forRoot(): DynamicModule {
    return { module: WorkerPartModule, imports: WORKER_PARTS() };
  }
}
