import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { PageOf, PaginationQuery, ParseIdPipe, SortBy, page, sortFields } from '@libs/http';
import { ChannelAccess } from '../channel-access';
import { ChannelSyncDto, syncDto } from '../channel.dto';
import { ChannelsRepository } from '../channels.repository';
import { SYNC_EXAMPLE, page as examplePage } from '../shared/examples';

export class ChannelSyncPage extends PageOf(ChannelSyncDto) {}

const SORTS = sortFields({ queuedAt: 'id' });

export class ListChannelSyncsQuery extends PaginationQuery {
  @SortBy(SORTS, 'queuedAt')
  sort?: string;
}

@ApiTags('Channels')
@Controller('api/v1/channels')
export class ListChannelSyncsController {
  constructor(
    private readonly access: ChannelAccess,
    private readonly channels: ChannelsRepository,
  ) {}

  @Get(':id/syncs')
  @RequireScope('read:metrics')
  @ApiOperation({ operationId: 'channels_syncs', summary: "The channel's syncs and imports, newest first: window, rows written, attempts, duration, error" })
  @ApiOkResponse({ type: ChannelSyncPage, example: examplePage({ ...SYNC_EXAMPLE, status: 'succeeded', startDate: '2026-11-21', endDate: '2026-11-23', rows: 412, attempts: 2, durationMs: 3810 }) })
  @ApiNotFoundResponse({ description: 'No channel the caller may see has this id' })
  async list(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number, @Query() q: ListChannelSyncsQuery): Promise<ChannelSyncPage> {
    const channel = await this.access.resolve(p, id);
    const { rows, total } = await this.channels.syncs(channel.id, q.limit, q.offset, q.order);
    return page(rows.map(syncDto), total, q);
  }
}
