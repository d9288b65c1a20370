import { defineConfigSection, type ConfigOf } from '@libs/config';

/** How the worker runs the projections (the feed's poll interval is the event store's: PROJECTION_POLL_MS). */
export const PROJECTION_CONFIG = defineConfigSection(
  'projections',
  [
    { name: 'PROJECTION_BATCH_SIZE', default: '1000', description: 'Events per projection transaction (a rebuild reads five times as many)' },
    {
      name: 'PROJECTION_SHARDS',
      default: '1',
      description: 'Shards of every projector group and reactor (by a hash of the organisation), shared by the worker processes; changing it from several to another count needs `projections rebuild` of each projection',
    },
    { name: 'PROJECTION_REBALANCE_MS', default: '1000', description: "How often a worker counts the live workers, takes its share of the shards and a dead worker's ones" },
    {
      name: 'ROLLUP_REBUILD_CONCURRENCY',
      default: '1',
      description: "Brands' rollup rebuilds (jobs of the {rollup-rebuilds} queue, `projections rebuild answer_rollups --per-brand`) run at once by one worker process",
    },
  ],
  (r) => ({
    batchSize: r.int('PROJECTION_BATCH_SIZE', 1, 100_000),
    shards: r.int('PROJECTION_SHARDS', 1, 256),
    rebalanceMs: r.int('PROJECTION_REBALANCE_MS', 50, 60_000),
    rollupRebuildConcurrency: r.int('ROLLUP_REBUILD_CONCURRENCY', 1, 64),
  }),
);
export type ProjectionConfig = ConfigOf<typeof PROJECTION_CONFIG>;
