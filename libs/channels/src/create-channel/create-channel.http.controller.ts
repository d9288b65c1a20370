import { Body, Controller, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { scopeOf } from '../channel-access';
import { ChannelResponse, channelDto } from '../channel.dto';
import { CHANNEL_EXAMPLE } from '../shared/examples';
import { ChannelCreator } from './channel-creator';
import { CreateChannelRequest } from './create-channel.request.dto';

@ApiTags('Channels')
@Controller('api/v1/channels')
export class CreateChannelController {
  constructor(private readonly creator: ChannelCreator) {}

  @Post()
  @RequireScope('write:metrics')
  @ApiOperation({
    operationId: 'channels_create',
    summary: 'Connect a channel to a client: ga4 (property id + service-account key), search_console (site URL + key) or import (uploads); credentials are stored encrypted and never returned',
  })
  @ApiCreatedResponse({ type: ChannelResponse, example: { data: CHANNEL_EXAMPLE } })
  @ApiNotFoundResponse({ description: 'No client (or brand of that client) the caller may see has this id' })
  async create(@CurrentPrincipal() p: Principal, @Body() body: CreateChannelRequest): Promise<ChannelResponse> {
    return { data: channelDto(await this.creator.create(scopeOf(p), body)) };
  }
}
