import { defineConfigSection, type ConfigOf } from '@libs/config';

/** How the worker runs the projections (the feed's poll interval is the event store's: PROJECTION_POLL_MS). */
export const PROJECTION_CONFIG = defineConfigSection(
  'projections',
  [
    { name: 'PROJECTION_BATCH_SIZE', default: '1000', description: 'Events per projection transaction (a rebuild reads five times as many)' },
  ],
  (r) => ({
    batchSize: r.int('PROJECTION_BATCH_SIZE', 1, 100_000),
  }),
);
export type ProjectionConfig = ConfigOf<typeof PROJECTION_CONFIG>;
