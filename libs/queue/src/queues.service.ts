import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { connectRedis } from '@libs/redis';
import { Gauge, register } from 'prom-client';
import { InjectConfig } from '@libs/config';
import { QUEUE_CONFIG, type QueueConfig } from './queue.config';
import type { QueueDefinition } from './queue-definition';

/** What a job handler gets: the job's data (and the job, for its id and attempts). */
export type JobHandler<Data, Result> = (data: Data, job: Job<Data, Result>) => Promise<Result>;

/** A queue this process adds jobs to. */
export interface QueueProducer<Data> {
  readonly queue: Queue<Data>;
  /** The queue's own Redis connection (for pipelines on its keys, e.g. `queue.toKey(jobId)`). */
  readonly connection: Redis;
}

/** A queue this process works off: its producer side and its worker. */
export interface ProcessedQueue<Data, Result = unknown> extends QueueProducer<Data> {
  readonly worker: Worker<Data, Result>;
  /** Stops taking jobs and waits for those in flight (the rest closes at application shutdown). */
  closeWorker(): Promise<void>;
}

/** Every queue of every Queues instance of this process, for the depth gauge. */
const live = new Set<{ name: string; queue: Queue }>();
const DEPTH_STATES = ['waiting', 'delayed', 'active'] as const;

async function depthOf(queue: Queue): Promise<number | null> {
  const counts = await queue.getJobCounts(...DEPTH_STATES).catch(() => null);
  return counts && Object.values(counts).reduce((a, b) => a + b, 0);
}

function registerDepthGauge(): void {
  if (register.getSingleMetric('queue_depth')) return;
  new Gauge({
    name: 'queue_depth',
    help: 'Jobs waiting, delayed or active in each BullMQ queue',
    labelNames: ['queue'],
    async collect() {
      this.reset();
      await Promise.all(
        [...live].map(async ({ name, queue }) => {
          const depth = await depthOf(queue);
          if (depth !== null) this.set({ queue: name }, depth);
        }),
      );
    },
  });
}

/** A gauge of one queue's depth under a name of its own (QueueDefinition.depthMetric). */
function registerNamedDepthGauge(metric: { name: string; help: string }, queue: Queue): void {
  register.removeSingleMetric(metric.name);
  new Gauge({
    name: metric.name,
    help: metric.help,
    async collect() {
      this.set((await depthOf(queue)) ?? 0);
    },
  });
}

/**
 * BullMQ for every processor of the service: one place that knows the connection and the key
 * prefix (QUEUE_CONFIG), builds workers from a QueueDefinition (concurrency, rate limit, stalled
 * job settings, default job options), exposes each queue's depth to Prometheus, and closes every
 * worker, queue and connection at application shutdown (workers first: in-flight jobs finish).
 */
@Injectable()
export class Queues implements OnApplicationShutdown {
  private readonly logger = new Logger('Queues');
  private readonly producers = new Map<string, QueueProducer<unknown>>();
  private readonly workers: Worker[] = [];
  private readonly connections: Redis[] = [];

  constructor(@InjectConfig(QUEUE_CONFIG) private readonly config: QueueConfig) {}

  /** BullMQ's key prefix of this deployment. */
  get prefix(): string {
    return this.config.prefix;
  }

  /** The queue of a definition, to add jobs to (one Queue per name in this process). */
  producer<Data>(definition: Pick<QueueDefinition, 'name' | 'defaultJobOptions' | 'depthMetric'>): QueueProducer<Data> {
    const existing = this.producers.get(definition.name);
    if (existing) return existing as QueueProducer<Data>;
    // DESIGN §18: on a Redis Cluster every key of a queue must share one slot, and BullMQ's scripts touch several.
    if (!/^\{[^{}]+\}$/.test(definition.name)) throw new Error(`queue "${definition.name}" must be hash-tagged ({name}) to run on a Redis Cluster`);
    const connection = this.connection();
    const queue = new Queue<Data>(definition.name, { connection, prefix: this.config.prefix, ...(definition.defaultJobOptions && { defaultJobOptions: definition.defaultJobOptions }) });
    queue.on('error', () => undefined);
    const producer: QueueProducer<Data> = { queue, connection };
    this.producers.set(definition.name, producer as QueueProducer<unknown>);
    live.add({ name: definition.name, queue: queue as Queue });
    registerDepthGauge();
    if (definition.depthMetric) registerNamedDepthGauge(definition.depthMetric, queue as Queue);
    return producer;
  }

  /** Works the definition's queue off in this process with `handler` (started at once). */
  process<Data, Result>(definition: QueueDefinition, handler: JobHandler<Data, Result>): ProcessedQueue<Data, Result> {
    const producer = this.producer<Data>(definition);
    // Only the settings the definition gives: an explicit `undefined` would replace BullMQ's default.
    const { concurrency, limiter, lockDuration, stalledInterval, maxStalledCount, removeOnComplete, removeOnFail, backoffStrategy, globalConcurrency } = definition;
    const settings = Object.fromEntries(
      Object.entries({ limiter, lockDuration, stalledInterval, maxStalledCount, removeOnComplete, removeOnFail }).filter(([, v]) => v !== undefined),
    );
    const worker = new Worker<Data, Result>(definition.name, (job) => handler(job.data, job), {
      ...settings,
      connection: this.connection(),
      prefix: this.config.prefix,
      concurrency,
      ...(backoffStrategy && { settings: { backoffStrategy } }),
    });
    if (globalConcurrency !== undefined) {
      producer.queue.setGlobalConcurrency(globalConcurrency).catch((error: Error) => this.logger.warn(`${definition.name}: global concurrency not set: ${error.message}`));
    }
    worker.on('error', (error) => this.logger.warn(`${definition.name} worker: ${error.message}`));
    this.workers.push(worker as Worker);
    return { ...producer, worker, closeWorker: () => worker.close().catch(() => undefined) };
  }

  private closing: Promise<void> | null = null;

  /** Closes every worker (in-flight jobs finish), then every queue and connection; once. */
  onApplicationShutdown(): Promise<void> {
    this.closing ??= this.close();
    return this.closing;
  }

  private async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close().catch(() => undefined)));
    for (const entry of [...live]) if (this.producers.get(entry.name)?.queue === entry.queue) live.delete(entry);
    await Promise.all([...this.producers.values()].map((p) => p.queue.close().catch(() => undefined)));
    for (const c of this.connections) c.disconnect();
  }

  private connection(): Redis {
    // BullMQ needs maxRetriesPerRequest: null (its blocking commands wait indefinitely).
    const c = connectRedis(this.config, { maxRetriesPerRequest: null, enableReadyCheck: false });
    c.on('error', () => undefined);
    this.connections.push(c);
    return c;
  }
}
