import { Injectable } from '@nestjs/common';
import { Queues, type QueueDefinition } from '@libs/queue';

/** One job per sync of a channel (`channel_syncs` row): the row is the record, the job only runs it. */
export interface ChannelSyncJob {
  syncId: number;
  channelId: number;
}

export const CHANNEL_SYNC_QUEUE: QueueDefinition = {
  name: '{channel-syncs}',
  concurrency: 4,
  // A sync's window is written chunk by chunk with its cursor: a job whose worker died is found
  // stalled within ~20 s (its lock lapses, the next check moves it back) and run again, resuming.
  lockDuration: 15_000,
  stalledInterval: 5_000,
  maxStalledCount: 10,
  defaultJobOptions: { attempts: 1, removeOnComplete: 1000, removeOnFail: 1000 },
};

@Injectable()
export class SyncQueue {
  constructor(private readonly queues: Queues) {}

  async enqueue(job: ChannelSyncJob): Promise<void> {
    await this.queues.producer<ChannelSyncJob>(CHANNEL_SYNC_QUEUE).queue.add('sync', job, { jobId: `sync-${job.syncId}` });
  }
}
