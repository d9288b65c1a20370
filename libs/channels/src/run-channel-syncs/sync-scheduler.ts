import { Injectable, Logger } from '@nestjs/common';
import { InjectConfig } from '@libs/config';
import { PeriodicService } from '@libs/queue';
import { CHANNELS_CONFIG, type ChannelsConfig } from '../channels.config';
import { ChannelsRepository } from '../channels.repository';
import { SyncQueue } from '../shared/sync-queue';

/**
 * The daily schedule: the built-in ai_referrals channel is made for every client with AI referral
 * visits; then every active syncing channel whose next sync is due is claimed (its next
 * sync moved a day on, in one statement only one worker process wins), gets a sync record and a job.
 */
@Injectable()
export class SyncScheduler extends PeriodicService {
  constructor(
    private readonly channels: ChannelsRepository,
    private readonly queue: SyncQueue,
    @InjectConfig(CHANNELS_CONFIG) config: ChannelsConfig,
  ) {
    super({
      name: 'channel scheduling',
      logger: new Logger('ChannelSyncScheduler'),
      everyMs: config.pollMs,
      firstAfterMs: 0,
      onResult: (ids, logger) => logger.debug(`scheduling pass done: ${(ids as number[]).length} sync(s) queued`),
    });
  }

  protected pass(): Promise<number[]> {
    return this.queueDue();
  }

  /** Queues a sync of every due channel; returns the sync ids. */
  async queueDue(now: Date = new Date()): Promise<number[]> {
    const ids: number[] = [];
    await this.channels.ensureAiReferrals();
    for (const c of await this.channels.claimDue(now)) {
      const sync = await this.channels.queueSync(c.organizationId, c.id, 'schedule');
      await this.queue.enqueue({ syncId: sync.id, channelId: c.id });
      ids.push(sync.id);
    }
    return ids;
  }
}
