import { Controller, Get, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ParseIdPipe } from '@libs/http';
import { ChannelAccess } from '../channel-access';
import { ChannelResponse, channelDto } from '../channel.dto';
import { CHANNEL_EXAMPLE } from '../shared/examples';

@ApiTags('Channels')
@Controller('api/v1/channels')
export class GetChannelController {
  constructor(private readonly access: ChannelAccess) {}

  @Get(':id')
  @RequireScope('read:metrics')
  @ApiOperation({ operationId: 'channels_get', summary: 'One channel with its cursor and last sync; credentials are never returned' })
  @ApiOkResponse({ type: ChannelResponse, example: { data: CHANNEL_EXAMPLE } })
  @ApiNotFoundResponse({ description: 'No channel the caller may see has this id' })
  async get(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number): Promise<ChannelResponse> {
    return { data: channelDto(await this.access.resolve(p, id)) };
  }
}
