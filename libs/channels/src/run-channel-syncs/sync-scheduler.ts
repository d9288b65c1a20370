import { Injectable, Logger, type OnApplicationBootstrap, type BeforeApplicationShutdown } from '@nestjs/common';
import { InjectConfig } from '@libs/config';
import { CHANNELS_CONFIG, type ChannelsConfig } from '../channels.config';
import { ChannelsRepository } from '../channels.repository';
import { SyncQueue } from '../shared/sync-queue';

/**
 * The daily schedule: the built-in ai_referrals channel is made for every client with AI referral
 * visits; then every active syncing channel whose next sync is due is claimed (its next
 * sync moved a day on, in one statement only one worker process wins), gets a sync record and a job.
 */
@Injectable()
export class SyncScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('ChannelSyncScheduler');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly channels: ChannelsRepository,
    private readonly queue: SyncQueue,
    @InjectConfig(CHANNELS_CONFIG) private readonly config: ChannelsConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), this.config.pollMs);
    this.timer.unref();
    void this.tick();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private async tick(): Promise<void> {
    if (this.running) return;
    this.running = this.queueDue().catch((error: Error) => this.logger.warn(`channel scheduling failed: ${error.message}`));
    await this.running;
    this.running = null;
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
