import type { QueueDefinition } from '@libs/queue';
import type { Provider } from '../domain';
import type { AnalysisConfig } from '../analysis.config';
import { EngineError } from './engines/answer-engine';

/** A job: one question of a run (its item n). The job id `answer-<runId>-<n>` makes enqueueing idempotent. */
export interface AnswerJob {
  runId: number;
  n: number;
}

export const answerJobId = (job: AnswerJob) => `answer-${job.runId}-${job.n}`;

/**
 * Retry delay: exponential from ANSWER_BACKOFF_MS (with ±20% jitter), or the provider's
 * Retry-After when it asks for longer.
 */
export function answerRetryDelay(attemptsMade: number, baseMs: number, error: unknown, random: () => number = Math.random): number {
  const exponential = baseMs * 2 ** Math.max(0, attemptsMade - 1) * (0.8 + 0.4 * random());
  const asked = error instanceof EngineError && error.retryAfterMs !== null ? error.retryAfterMs : 0;
  return Math.round(Math.max(exponential, asked));
}

/**
 * One queue per provider, so that each provider's concurrency and requests-per-minute limits hold
 * across every worker process (BullMQ's global concurrency and its queue-wide rate limiter).
 */
export function answerQueue(provider: Provider, config: AnalysisConfig): QueueDefinition {
  const settings = config.providers[provider];
  return {
    name: `{answers-${provider}}`,
    concurrency: settings.concurrency,
    globalConcurrency: settings.concurrency,
    limiter: { max: settings.requestsPerMinute, duration: 60_000 },
    // A living worker renews its jobs' locks; a dead one's jobs come back after the lock lapses and the
    // next stalled check (≤ 20 s), and count against the global concurrency until then. A job may
    // stall several times (a worker killed again and again) before BullMQ gives it up.
    lockDuration: 15_000,
    stalledInterval: 5_000,
    maxStalledCount: 10,
    defaultJobOptions: { attempts: config.attempts, backoff: { type: 'custom' } },
    backoffStrategy: (attemptsMade, _type, error) => answerRetryDelay(attemptsMade, config.backoffMs, error),
    removeOnComplete: { age: 3600, count: 10_000 },
    removeOnFail: { age: 86_400 },
  };
}
