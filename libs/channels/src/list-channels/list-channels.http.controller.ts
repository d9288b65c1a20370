import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ApiError } from '@libs/http';
import { TenancyRepository } from '@libs/tenancy';
import { scopeOf } from '../channel-access';
import { ChannelDto, channelDto } from '../channel.dto';
import { ChannelsRepository } from '../channels.repository';
import { CHANNEL_EXAMPLE } from '../shared/examples';
import { ListChannelsQuery } from './list-channels.request.dto';

export class ChannelListResponse {
  @ApiProperty({ type: [ChannelDto] }) data!: ChannelDto[];
}

@ApiTags('Channels')
@Controller('api/v1/channels')
export class ListChannelsController {
  constructor(
    private readonly channels: ChannelsRepository,
    private readonly tenancy: TenancyRepository,
  ) {}

  @Get()
  @RequireScope('read:metrics')
  @ApiOperation({ operationId: 'channels_list', summary: "The client's connected channels (ga4, search_console, import, ai_referrals), by id; credentials are never returned" })
  @ApiOkResponse({ type: ChannelListResponse, example: { data: [CHANNEL_EXAMPLE] } })
  @ApiNotFoundResponse({ description: 'No client the caller may see has this id' })
  async list(@CurrentPrincipal() p: Principal, @Query() q: ListChannelsQuery): Promise<ChannelListResponse> {
    if (!(await this.tenancy.canSeeClient(scopeOf(p), q.clientId))) throw ApiError.notFound(`Client ${q.clientId}`);
    await this.channels.ensureAiReferrals(q.clientId); // built in once the client has AI referral visits
    return { data: (await this.channels.list(scopeOf(p), q.clientId)).map(channelDto) };
  }
}
