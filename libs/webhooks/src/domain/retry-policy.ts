/** Longest wait a `Retry-After` may ask for (a day); anything longer is cut to it. */
export const MAX_RETRY_AFTER_MS = 86_400_000;

/** `Retry-After` as seconds or an HTTP date, in milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: Date): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  const trimmed = text.trim();
  if (/^\d{1,10}$/.test(trimmed)) return Math.min(Number(trimmed) * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, at - now.getTime()), MAX_RETRY_AFTER_MS);
}

export type AttemptOutcome =
  | { kind: 'succeeded' }
  /** Retry after `delayMs`. */
  | { kind: 'retry'; delayMs: number }
  /** No retry left: the delivery failed. */
  | { kind: 'exhausted' }
  /** 410 Gone: the subscriber asked to stop; the subscription is deactivated. */
  | { kind: 'gone' };

/**
 * After attempt number `attempt` (1-based) answered `status` (null: no answer: timeout, refused,
 * network): a 2xx succeeds; 410 deactivates; anything else (3xx too: redirects are not followed)
 * retries after the schedule's delay for that attempt, or the receiver's `Retry-After` when it
 * asks for longer, until the schedule is used up.
 */
export function decideAfterAttempt(attempt: number, status: number | null, retryAfterMs: number | null, schedule: readonly number[]): AttemptOutcome {
  if (status !== null && status >= 200 && status < 300) return { kind: 'succeeded' };
  if (status === 410) return { kind: 'gone' };
  if (attempt > schedule.length) return { kind: 'exhausted' };
  const scheduled = schedule[attempt - 1];
  return { kind: 'retry', delayMs: Math.max(scheduled, retryAfterMs ?? 0) };
}
