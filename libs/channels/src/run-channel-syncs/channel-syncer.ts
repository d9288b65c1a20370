import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@libs/config';
import { utcDay } from '@libs/metrics';
import { CHANNELS_CONFIG, type ChannelsConfig } from '../channels.config';
import { ChannelsRepository } from '../channels.repository';
import { CredentialsBox } from '../credentials-box';
import { chunks, syncWindow } from '../domain';
import { BrandMap } from '../read-model/brand-map';
import { clearWindow, writeChannelData } from '../read-model/daily-rows.store';
import { ChannelSources } from '../shared/channel-sources';
import { SourceError } from '../shared/connectors/source-errors';

export interface SyncOutcome {
  status: 'succeeded' | 'failed';
  rows: number;
  attempts: number;
  error: string | null;
  startDate: string | null;
  endDate: string | null;
}

/**
 * Runs one sync of a channel (DESIGN §13.3): the window from its cursor (or the backfill on the
 * first sync) up to yesterday, fetched in chunks of days; each chunk's rows replace that chunk's
 * days and move the cursor in one transaction, so a crash resumes after the last written chunk.
 * The sync's record gets its rows, attempts, duration and error. Credentials are opened only to
 * be handed to the connector and never logged.
 */
@Injectable()
export class ChannelSyncer {
  private readonly logger = new Logger('ChannelSyncer');

  constructor(
    private readonly dataSource: DataSource,
    private readonly channels: ChannelsRepository,
    private readonly sources: ChannelSources,
    private readonly box: CredentialsBox,
    @InjectConfig(CHANNELS_CONFIG) private readonly config: ChannelsConfig,
  ) {}

  async run(syncId: number, channelId: number, now: Date = new Date()): Promise<SyncOutcome> {
    const outcome: SyncOutcome = { status: 'succeeded', rows: 0, attempts: 0, error: null, startDate: null, endDate: null };
    if (!(await this.channels.startSync(syncId))) return { ...outcome, error: 'not queued' };
    try {
      const channel = await this.channels.forSync(channelId);
      const source = channel && this.sources.of(channel.kind);
      if (!channel || !source) throw new SourceError('the channel has no source to sync from', false);
      const window = syncWindow({ cursor: channel.cursorDate, backfillDays: channel.backfillDays, today: utcDay(now), refreshDays: this.config.refreshDays });
      if (window) {
        [outcome.startDate, outcome.endDate] = [window.start, window.end];
        const credentials = channel.credentialsSealed ? this.box.open(channel.credentialsSealed) : null;
        const brands = await BrandMap.load(this.dataSource, channel.organizationId, channel.clientId, channel.brandId);
        for (const chunk of chunks(window, this.config.chunkDays)) {
          outcome.attempts++;
          const data = await source.fetch(channel, credentials, chunk, {
            attempts: this.config.attempts,
            backoffMs: this.config.backoffMs,
            onRetry: (error, retry, delay) => {
              outcome.attempts++;
              this.logger.warn(`channel ${channel.id}: ${error.message}; retry ${retry} in ${delay} ms`);
            },
          });
          await this.dataSource.transaction(async (m) => {
            await clearWindow(m, channel.id, chunk.start, chunk.end);
            outcome.rows += await writeChannelData(m, { organizationId: channel.organizationId, clientId: channel.clientId, channelId: channel.id, kind: channel.kind }, brands, data);
            await this.channels.moveCursor(m, channel.id, chunk.end);
          });
        }
      }
    } catch (error) {
      outcome.status = 'failed';
      outcome.error = error instanceof SourceError ? error.message : `internal error: ${(error as Error).message}`.slice(0, 500);
      this.logger.warn(`channel ${channelId}: sync ${syncId} failed: ${outcome.error}`);
    }
    await this.channels.finishSync(syncId, outcome);
    return outcome;
  }
}
