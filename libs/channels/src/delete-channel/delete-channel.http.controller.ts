import { Controller, Delete, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ApiError, ParseIdPipe } from '@libs/http';
import { ChannelAccess, scopeOf } from '../channel-access';
import { ChannelsRepository } from '../channels.repository';

export class DeletedChannelDto {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty() deleted!: boolean;
}
export class DeletedChannelResponse {
  @ApiProperty({ type: DeletedChannelDto }) data!: DeletedChannelDto;
}

@ApiTags('Channels')
@Controller('api/v1/channels')
export class DeleteChannelController {
  constructor(
    private readonly access: ChannelAccess,
    private readonly channels: ChannelsRepository,
  ) {}

  @Delete(':id')
  @RequireScope('write:metrics')
  @ApiOperation({ operationId: 'channels_remove', summary: 'Disconnect a channel: its credentials, syncs and daily rows are deleted (the built-in ai_referrals channel cannot be)' })
  @ApiOkResponse({ type: DeletedChannelResponse, example: { data: { id: 12, deleted: true } } })
  @ApiNotFoundResponse({ description: 'No channel the caller may see has this id' })
  async remove(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number): Promise<DeletedChannelResponse> {
    const channel = await this.access.resolve(p, id);
    if (channel.kind === 'ai_referrals') throw ApiError.validation([{ field: 'id', message: 'the built-in ai_referrals channel cannot be deleted; set isActive false to pause it' }]);
    if (!(await this.channels.delete(scopeOf(p), id))) throw ApiError.notFound(`Channel ${id}`);
    return { data: { id, deleted: true } };
  }
}
