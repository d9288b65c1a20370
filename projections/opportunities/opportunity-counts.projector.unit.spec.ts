import { dueBuckets } from './opportunity-counts.projector';

describe('due buckets', () => {
  it('are the UTC month, day, hour and ten minutes of the due time, coarse to fine', () => {
    expect(dueBuckets('2026-11-21T12:58:07.123Z')).toEqual([
      ['month', '2026-11-01T00:00:00.000Z'],
      ['day', '2026-11-21T00:00:00.000Z'],
      ['hour', '2026-11-21T12:00:00.000Z'],
      ['10min', '2026-11-21T12:50:00.000Z'],
    ]);
    // An offset time is read in UTC.
    expect(dueBuckets('2026-12-31T23:05:00-02:00')[0]).toEqual(['month', '2027-01-01T00:00:00.000Z']);
  });
});
