import { Body, Controller, Param, Patch } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ApiError, ParseIdPipe } from '@libs/http';
import { BrandAccess, TenancyRepository } from '@libs/tenancy';
import { ChannelAccess, scopeOf } from '../channel-access';
import { assertClientAndBrand, kindProblems, sealCredentials } from '../channel-fields';
import { ChannelResponse, channelDto } from '../channel.dto';
import { ChannelsRepository } from '../channels.repository';
import { CredentialsBox } from '../credentials-box';
import { CHANNEL_EXAMPLE } from '../shared/examples';
import { UpdateChannelRequest } from './update-channel.request.dto';

@ApiTags('Channels')
@Controller('api/v1/channels')
export class UpdateChannelController {
  constructor(
    private readonly access: ChannelAccess,
    private readonly channels: ChannelsRepository,
    private readonly tenancy: TenancyRepository,
    private readonly brands: BrandAccess,
    private readonly box: CredentialsBox,
  ) {}

  @Patch(':id')
  @RequireScope('write:metrics')
  @ApiOperation({
    operationId: 'channels_update',
    summary: 'Change a channel: name, brand, property or site (the cursor then starts over with a backfill), credentials (replaced; never returned), backfill days, active',
  })
  @ApiOkResponse({ type: ChannelResponse, example: { data: CHANNEL_EXAMPLE } })
  @ApiNotFoundResponse({ description: 'No channel (or brand of its client) the caller may see has this id' })
  async update(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number, @Body() body: UpdateChannelRequest): Promise<ChannelResponse> {
    const channel = await this.access.resolve(p, id);
    if (channel.kind === 'ai_referrals' && (body.propertyId !== undefined || body.siteUrl !== undefined || body.credentials !== undefined)) {
      throw ApiError.validation([{ field: 'kind', message: 'the built-in ai_referrals channel has no source settings' }]);
    }
    const problems = kindProblems(channel.kind, body, false);
    if (problems.length) throw ApiError.validation(problems);
    await assertClientAndBrand(this.tenancy, this.brands, scopeOf(p), channel.clientId, body.brandId);
    const updated = await this.channels.update(scopeOf(p), id, {
      name: body.name,
      brandId: body.brandId,
      propertyId: body.propertyId,
      siteUrl: body.siteUrl,
      credentialsSealed: body.credentials === undefined ? undefined : sealCredentials(this.box, body.credentials),
      backfillDays: body.backfillDays,
      isActive: body.isActive,
    });
    if (!updated) throw ApiError.notFound(`Channel ${id}`);
    return { data: channelDto(updated) };
  }
}
