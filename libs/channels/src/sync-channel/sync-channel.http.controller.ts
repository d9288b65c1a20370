import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiNotFoundResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ApiError, ParseIdPipe } from '@libs/http';
import { ChannelAccess } from '../channel-access';
import { ChannelSyncDto, syncDto } from '../channel.dto';
import { ChannelsRepository } from '../channels.repository';
import { syncs } from '../domain';
import { SYNC_EXAMPLE } from '../shared/examples';
import { SyncQueue } from '../shared/sync-queue';

export class ChannelSyncResponse {
  @ApiProperty({ type: ChannelSyncDto }) data!: ChannelSyncDto;
}

@ApiTags('Channels')
@Controller('api/v1/channels')
export class SyncChannelController {
  constructor(
    private readonly access: ChannelAccess,
    private readonly channels: ChannelsRepository,
    private readonly queue: SyncQueue,
  ) {}

  @Post(':id/sync')
  @HttpCode(202)
  @RequireScope('write:metrics')
  @ApiOperation({ operationId: 'channels_sync', summary: 'Sync now: queues a sync from the cursor (a backfill on the first) up to yesterday; the record answers at once and GET /channels/{id}/syncs follows it' })
  @ApiAcceptedResponse({ type: ChannelSyncResponse, example: { data: SYNC_EXAMPLE } })
  @ApiNotFoundResponse({ description: 'No channel the caller may see has this id' })
  async sync(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number): Promise<ChannelSyncResponse> {
    const channel = await this.access.resolve(p, id);
    if (!syncs(channel.kind)) throw ApiError.validation([{ field: 'id', message: 'an import channel does not sync; POST its rows to /channels/{id}/imports' }]);
    const sync = await this.channels.queueSync(channel.organizationId, channel.id, 'manual');
    await this.queue.enqueue({ syncId: sync.id, channelId: channel.id });
    return { data: syncDto(sync) };
  }
}
