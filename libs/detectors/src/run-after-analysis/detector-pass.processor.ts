import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectConfig } from '@libs/config';
import { Queues, type QueueDefinition, type QueueProducer } from '@libs/queue';
import { DETECTORS_CONFIG, type DetectorsConfig } from '../detectors.config';
import { DetectorPass } from '../shared/detector-pass';

/** One brand's pass after its runs completed. */
export interface DetectorPassJob {
  organizationId: number;
  brandId: number;
  runIds: number[];
  correlationId: string;
}

/**
 * The brands' detector passes, one job per brand of the completed runs, spread over every worker
 * process (issue 34: a pass is the heavy part of the loop, and an organisation's brands need not
 * wait for each other on the worker holding its shard). Job ids make enqueueing idempotent (a
 * reactor batch given again queues nothing twice while its jobs are kept); a pass is idempotent
 * itself (fingerprints, recorded verdicts, final outcomes), so a retried or stalled job changes
 * nothing twice.
 */
export function detectorPassQueue(config: Pick<DetectorsConfig, 'passConcurrency'>): QueueDefinition {
  return {
    name: '{detector-passes}',
    concurrency: config.passConcurrency,
    lockDuration: 60_000,
    stalledInterval: 30_000,
    maxStalledCount: 3,
    defaultJobOptions: { attempts: 5, backoff: { type: 'exponential', delay: 2000 } },
    removeOnComplete: { age: 3600, count: 10_000 },
    removeOnFail: { age: 86_400 },
  };
}

export const detectorPassJobId = (job: Pick<DetectorPassJob, 'correlationId' | 'brandId'>) => `${job.correlationId}-brand-${job.brandId}`;

/** Queues brands' passes (the reactor) and runs them (every worker). */
@Injectable()
export class DetectorPassProcessor implements OnApplicationBootstrap {
  private producer: QueueProducer<DetectorPassJob> | null = null;

  constructor(
    private readonly queues: Queues,
    private readonly pass: DetectorPass,
    @InjectConfig(DETECTORS_CONFIG) private readonly config: DetectorsConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.producer = this.queues.process<DetectorPassJob, unknown>(detectorPassQueue(this.config), async (job) => {
      await this.pass.run(job.organizationId, job.brandId, new Set(job.runIds), job.correlationId);
    });
  }

  /** Whether no pass is queued or running (anywhere): what a test waits for after the reactor queued them. */
  async idle(): Promise<boolean> {
    const producer = (this.producer ??= this.queues.producer<DetectorPassJob>(detectorPassQueue(this.config)));
    const counts = await producer.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
    return Object.values(counts).every((n) => n === 0);
  }

  async enqueue(jobs: readonly DetectorPassJob[]): Promise<void> {
    if (!jobs.length) return;
    const producer = (this.producer ??= this.queues.producer<DetectorPassJob>(detectorPassQueue(this.config)));
    await producer.queue.addBulk(jobs.map((data) => ({ name: 'pass', data, opts: { jobId: detectorPassJobId(data) } })));
  }
}
