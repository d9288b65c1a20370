import type { BackoffStrategy, DefaultJobOptions, KeepJobs, RateLimiterOptions } from 'bullmq';

/**
 * One BullMQ queue and how this process works it off: everything a processor decides about its
 * queue, in one value beside the processor (`<verb>-<noun>.processor.ts`).
 */
export interface QueueDefinition {
  /** The queue's name. Wrap it in braces (`{answer-jobs}`) so every key of the queue lands in one Redis Cluster slot. */
  readonly name: string;
  /** Jobs in flight at once in this process. */
  readonly concurrency: number;
  /** At most `max` jobs per `duration` ms across every worker of the queue. */
  readonly limiter?: RateLimiterOptions;
  /** How long a job's lock lasts; it is renewed while the job runs (BullMQ default 30 s). */
  readonly lockDuration?: number;
  /** How often stalled jobs (their worker died) are looked for (BullMQ default 30 s). */
  readonly stalledInterval?: number;
  /** How many times a job may stall before it fails (BullMQ default 1). */
  readonly maxStalledCount?: number;
  /** Options of every job added to the queue (attempts, backoff, removal, …). */
  readonly defaultJobOptions?: DefaultJobOptions;
  /** Which finished jobs the worker keeps (BullMQ keeps them all by default). */
  readonly removeOnComplete?: KeepJobs;
  readonly removeOnFail?: KeepJobs;
  /**
   * The queue's depth is always in `queue_depth{queue}`; a name here also exposes it as its own
   * gauge (kept for dashboards that predate the shared one).
   */
  readonly depthMetric?: { name: string; help: string };
  /** Jobs of this queue in flight across every worker process (BullMQ's global concurrency), besides `concurrency` per process. */
  readonly globalConcurrency?: number;
  /** Delay before a retry, for jobs whose `backoff.type` is 'custom' (e.g. honouring a Retry-After carried by the error). */
  readonly backoffStrategy?: BackoffStrategy;
}

/**
 * What most queues of the service do with their jobs: 5 attempts, exponential backoff from
 * `delayMs`, finished jobs kept an hour (10,000 at most: their ids dedupe a repeat meanwhile),
 * failed ones a day. Spread into a QueueDefinition.
 */
export function retriedJobs(delayMs: number): Pick<QueueDefinition, 'defaultJobOptions' | 'removeOnComplete' | 'removeOnFail'> {
  return {
    defaultJobOptions: { attempts: 5, backoff: { type: 'exponential', delay: delayMs } },
    removeOnComplete: { age: 3600, count: 10_000 },
    removeOnFail: { age: 86_400 },
  };
}
