/**
 * A fixed-bucket latency histogram: counts per bucket, addable across processes, days and rows
 * (so it can be summed in SQL), from which percentiles are estimated. Pure, no I/O.
 */

/** Upper bounds (ms, inclusive) of the buckets; one more bucket holds everything slower. */
export const LATENCY_BOUNDS_MS = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000] as const;
export const LATENCY_BUCKETS = LATENCY_BOUNDS_MS.length + 1;

export function bucketOf(ms: number): number {
  for (let i = 0; i < LATENCY_BOUNDS_MS.length; i++) if (ms <= LATENCY_BOUNDS_MS[i]) return i;
  return LATENCY_BOUNDS_MS.length;
}

export function emptyHistogram(): number[] {
  return new Array<number>(LATENCY_BUCKETS).fill(0);
}

/** Adds `b` into `a` (element-wise); a shorter `b` is fine. */
export function addInto(a: number[], b: readonly number[]): number[] {
  for (let i = 0; i < b.length && i < a.length; i++) a[i] += b[i];
  return a;
}

/**
 * The p-th percentile (0 < p ≤ 100) in ms, interpolated linearly inside its bucket; a value in the
 * open-ended last bucket is reported as that bucket's lower bound. Null for an empty histogram.
 */
export function percentile(histogram: readonly number[], p: number): number | null {
  const total = histogram.reduce((s, c) => s + c, 0);
  if (total === 0) return null;
  const rank = (p / 100) * total;
  let seen = 0;
  for (let i = 0; i < histogram.length; i++) {
    const count = histogram[i];
    if (count === 0) continue;
    if (seen + count >= rank) {
      const lower = i === 0 ? 0 : LATENCY_BOUNDS_MS[i - 1];
      if (i >= LATENCY_BOUNDS_MS.length) return lower;
      const upper = LATENCY_BOUNDS_MS[i];
      const within = Math.max(0, rank - seen) / count;
      return Math.round((lower + (upper - lower) * within) * 100) / 100;
    }
    seen += count;
  }
  return LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1];
}
