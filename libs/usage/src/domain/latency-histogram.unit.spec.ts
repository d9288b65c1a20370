import { LATENCY_BUCKETS, addInto, bucketOf, emptyHistogram, percentile } from './latency-histogram';

describe('latency histogram', () => {
  it('puts a latency in the first bucket whose upper bound holds it', () => {
    expect(bucketOf(0.2)).toBe(0);
    expect(bucketOf(1)).toBe(0);
    expect(bucketOf(1.01)).toBe(1);
    expect(bucketOf(30)).toBe(5);
    expect(bucketOf(60_000)).toBe(LATENCY_BUCKETS - 1);
  });

  it('adds histograms element-wise', () => {
    expect(addInto([1, 2, 3], [1, 1])).toEqual([2, 3, 3]);
    expect(emptyHistogram()).toHaveLength(LATENCY_BUCKETS);
  });

  it('estimates percentiles by interpolating inside the bucket', () => {
    const h = emptyHistogram();
    h[bucketOf(0.5)] = 50; // 50 requests ≤ 1 ms
    h[bucketOf(4)] = 45; // 45 in (2, 5]
    h[bucketOf(80)] = 5; // 5 in (50, 100]
    expect(percentile(h, 50)).toBe(1);
    expect(percentile(h, 95)).toBe(5);
    expect(percentile(h, 99)).toBe(90);
    expect(percentile(emptyHistogram(), 50)).toBeNull();
  });

  it('reports the open-ended bucket by its lower bound', () => {
    const h = emptyHistogram();
    h[LATENCY_BUCKETS - 1] = 3;
    expect(percentile(h, 99)).toBe(10_000);
  });
});
