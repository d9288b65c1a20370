import { Module } from '@nestjs/common';
import { OpportunityCommandsModule } from '@libs/opportunities';
import { TenancyModule } from '@libs/tenancy';
import { QueueModule } from '@libs/queue';
import { DetectorPassProcessor } from './run-after-analysis/detector-pass.processor';
import { DetectorThresholdsRepository } from './detector-thresholds.repository';
import { AnswerFactsReads } from './read-model/answer-facts.reads';
import { ChannelOutcomeReads } from './read-model/channel-outcome.reads';
import { DEFAULT_DETECTOR_LIST, DetectorPass } from './shared/detector-pass';
import { VerifyingOpportunities } from './shared/verifying';
import { OutcomeSweep } from './run-after-analysis/outcome-sweep';
import { BotDailyReads } from './read-model/bot-daily.reads';
import { CrawlBlockPass } from './run-bot-detectors/crawl-block-pass';
import { CrawlBlockSweep } from './run-bot-detectors/crawl-block-sweep';
import { PageHistoryReads } from './read-model/page-history.reads';
import { PageGapPass } from './run-page-detectors/page-gap-pass';
import { PageGapSweep } from './run-page-detectors/page-gap-sweep';

/** The detector pass alone (what it reads, the thresholds, the detectors): the worker's loop below, and the demo seed that replays its history's passes. */
@Module({
  imports: [OpportunityCommandsModule, TenancyModule],
  providers: [AnswerFactsReads, ChannelOutcomeReads, DetectorThresholdsRepository, DEFAULT_DETECTOR_LIST, VerifyingOpportunities, DetectorPass],
  exports: [DetectorPass, DetectorThresholdsRepository, AnswerFactsReads, ChannelOutcomeReads, VerifyingOpportunities],
})
export class DetectorPassModule {}

/**
 * The closed loop in the worker: the detector pass (verify fixes, open what the detectors report,
 * finalise outcomes) that DetectorsReactor queues per brand when analysis runs complete (any worker runs it), and the periodic
 * outcome sweep, the daily bot detectors (crawl_block), and the page detectors (readiness_gap, schema_gap) after page audits. The reactor itself is built in the projection engine's module from these exports.
 */
@Module({
  imports: [DetectorPassModule, OpportunityCommandsModule, TenancyModule, QueueModule],
  providers: [OutcomeSweep, BotDailyReads, CrawlBlockPass, CrawlBlockSweep, PageHistoryReads, PageGapPass, PageGapSweep, DetectorPassProcessor],
  exports: [DetectorPassModule, CrawlBlockPass, PageGapPass, DetectorPassProcessor],
})
export class DetectorsWorkerModule {}
