import { Body, Controller, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ApiError } from '@libs/http';
import { BrandAccess, TenancyRepository } from '@libs/tenancy';
import { scopeOf } from '../channel-access';
import { assertClientAndBrand, kindProblems, sealCredentials } from '../channel-fields';
import { ChannelResponse, channelDto } from '../channel.dto';
import { ChannelsRepository } from '../channels.repository';
import { CredentialsBox } from '../credentials-box';
import { CHANNEL_EXAMPLE } from '../shared/examples';
import { CreateChannelRequest } from './create-channel.request.dto';

@ApiTags('Channels')
@Controller('api/v1/channels')
export class CreateChannelController {
  constructor(
    private readonly channels: ChannelsRepository,
    private readonly tenancy: TenancyRepository,
    private readonly brands: BrandAccess,
    private readonly box: CredentialsBox,
  ) {}

  @Post()
  @RequireScope('write:metrics')
  @ApiOperation({
    operationId: 'channels_create',
    summary: 'Connect a channel to a client: ga4 (property id + service-account key), search_console (site URL + key) or import (uploads); credentials are stored encrypted and never returned',
  })
  @ApiCreatedResponse({ type: ChannelResponse, example: { data: CHANNEL_EXAMPLE } })
  @ApiNotFoundResponse({ description: 'No client (or brand of that client) the caller may see has this id' })
  async create(@CurrentPrincipal() p: Principal, @Body() body: CreateChannelRequest): Promise<ChannelResponse> {
    const problems = kindProblems(body.kind, body, true);
    if (problems.length) throw ApiError.validation(problems);
    await assertClientAndBrand(this.tenancy, this.brands, scopeOf(p), body.clientId, body.brandId);
    const channel = await this.channels.create(p.organizationId, {
      clientId: body.clientId,
      kind: body.kind,
      name: body.name,
      brandId: body.brandId ?? null,
      propertyId: body.propertyId ?? null,
      siteUrl: body.siteUrl ?? null,
      credentialsSealed: body.credentials === undefined ? null : sealCredentials(this.box, body.credentials),
      backfillDays: body.backfillDays ?? 30,
      isActive: body.isActive ?? true,
    });
    return { data: channelDto(channel) };
  }
}
