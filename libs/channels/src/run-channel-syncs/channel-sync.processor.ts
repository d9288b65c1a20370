import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Queues } from '@libs/queue';
import { CHANNEL_SYNC_QUEUE, type ChannelSyncJob } from '../shared/sync-queue';
import { ChannelSyncer } from './channel-syncer';

/** Works off `{channel-syncs}`: each job runs its sync (the outcome is in the sync's record, so the job itself never fails). */
@Injectable()
export class ChannelSyncProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly queues: Queues,
    private readonly syncer: ChannelSyncer,
  ) {}

  onApplicationBootstrap(): void {
    this.queues.process<ChannelSyncJob, unknown>(CHANNEL_SYNC_QUEUE, (job) => this.syncer.run(job.syncId, job.channelId));
  }
}
