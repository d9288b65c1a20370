/**
 * Quota and transient failures of a source API are retried with exponential backoff and jitter:
 * the n-th retry (1-based) waits `base * 2^(n-1)`, at most `max`, times a random factor in
 * [0.5, 1]; a longer Retry-After from the source wins.
 */
export function retryDelayMs(retry: number, baseMs: number, maxMs: number, retryAfterMs: number | null = null, random: () => number = Math.random): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.max(0, retry - 1));
  const delay = Math.round(exponential * (0.5 + random() / 2));
  return retryAfterMs !== null && retryAfterMs > delay ? Math.min(retryAfterMs, maxMs) : delay;
}
