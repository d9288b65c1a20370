import { loadConfig, sectionOf } from '@libs/config';
import { PROJECTION_CONFIG } from './projection.config';

describe('PROJECTION_CONFIG', () => {
  const load = (env: NodeJS.ProcessEnv) => sectionOf(loadConfig(env, [PROJECTION_CONFIG]), PROJECTION_CONFIG);

  it('reads the batch size, 1000 by default, within 1..100000', () => {
    expect(load({})).toEqual({ batchSize: 1000, shards: 1, rebalanceMs: 1000, rollupRebuildConcurrency: 1 });
    expect(load({ PROJECTION_BATCH_SIZE: '200' }).batchSize).toBe(200);
    expect(() => load({ PROJECTION_BATCH_SIZE: '0' })).toThrow(/PROJECTION_BATCH_SIZE/);
    expect(() => load({ PROJECTION_BATCH_SIZE: 'many' })).toThrow(/PROJECTION_BATCH_SIZE/);
  });

  it('reads the shard count (1 by default, at most 256) and the rebalance interval', () => {
    expect(load({ PROJECTION_SHARDS: '8', PROJECTION_REBALANCE_MS: '250' })).toMatchObject({ shards: 8, rebalanceMs: 250 });
    expect(() => load({ PROJECTION_SHARDS: '0' })).toThrow(/PROJECTION_SHARDS/);
    expect(() => load({ PROJECTION_SHARDS: '257' })).toThrow(/PROJECTION_SHARDS/);
    expect(() => load({ PROJECTION_REBALANCE_MS: '10' })).toThrow(/PROJECTION_REBALANCE_MS/);
  });

  it("reads how many brands' rollup rebuilds a worker runs at once (1 by default, 1..64)", () => {
    expect(load({ ROLLUP_REBUILD_CONCURRENCY: '4' }).rollupRebuildConcurrency).toBe(4);
    expect(() => load({ ROLLUP_REBUILD_CONCURRENCY: '0' })).toThrow(/ROLLUP_REBUILD_CONCURRENCY/);
  });
});
