import { defineConfigSection, type ConfigOf } from '@libs/config';

/** API usage counting. */
export const USAGE_CONFIG = defineConfigSection(
  'usage',
  [{ name: 'USAGE_FLUSH_MS', default: '1000', description: 'How often API usage counters are written to PostgreSQL' }],
  (r) => ({
    /** How often the in-memory usage counters are written to PostgreSQL. */
    usageFlushMs: r.int('USAGE_FLUSH_MS', 10, 600_000),
  }),
);
export type UsageConfig = ConfigOf<typeof USAGE_CONFIG>;
