import { defineConfigSection, type ConfigOf } from '@libs/config';

/** Detectors: how they wait for the answers' read model, how much history they read, how often outcomes are finalised. */
export const DETECTORS_CONFIG = defineConfigSection(
  'detectors',
  [
    { name: 'DETECTOR_READ_MODEL_WAIT_MS', default: '30000', description: "How long the detectors wait for the answers' read model to reach a completed run before trying the run again" },
    { name: 'DETECTOR_HISTORY_DAYS', default: '90', description: 'Days of answers the detectors read (baseline windows never reach further back)' },
    { name: 'DETECTOR_OUTCOME_POLL_MS', default: '3600000', description: 'How often the worker finalises the outcomes whose window after resolution has passed' },
    { name: 'DETECTOR_BOT_POLL_MS', default: '86400000', description: 'How often the worker runs the bot detectors (crawl_block) over the daily bot rollups' },
    { name: 'DETECTOR_BOT_DAYS', default: '7', description: 'Days of bot rollups (today included) crawl_block judges' },
    { name: 'DETECTOR_PAGE_POLL_MS', default: '60000', description: 'How often the worker runs the page detectors (readiness_gap, schema_gap) over the page audits completed since' },
    { name: 'DETECTOR_PASS_CONCURRENCY', default: '2', description: "Brands' detector passes (the {detector-passes} queue's jobs) run at once by one worker process" },
  ],
  (r) => ({
    readModelWaitMs: r.int('DETECTOR_READ_MODEL_WAIT_MS', 100, 3_600_000),
    historyDays: r.int('DETECTOR_HISTORY_DAYS', 1, 3650),
    outcomePollMs: r.int('DETECTOR_OUTCOME_POLL_MS', 100, 86_400_000),
    botPollMs: r.int('DETECTOR_BOT_POLL_MS', 100, 7 * 86_400_000),
    botDays: r.int('DETECTOR_BOT_DAYS', 1, 90),
    pagePollMs: r.int('DETECTOR_PAGE_POLL_MS', 100, 86_400_000),
    passConcurrency: r.int('DETECTOR_PASS_CONCURRENCY', 1, 64),
  }),
);
export type DetectorsConfig = ConfigOf<typeof DETECTORS_CONFIG>;
