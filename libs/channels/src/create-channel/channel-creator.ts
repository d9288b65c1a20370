import { Injectable } from '@nestjs/common';
import { ApiError } from '@libs/http';
import { BrandAccess, TenancyRepository, type TenantScope } from '@libs/tenancy';
import { assertClientAndBrand, kindProblems, sealCredentials } from '../channel-fields';
import { ChannelsRepository, type Channel } from '../channels.repository';
import { CredentialsBox } from '../credentials-box';
import type { CreateChannelRequest } from './create-channel.request.dto';

/** Connects a channel (API and CLI): what its kind needs, the client and brand the caller's, the credentials sealed. */
@Injectable()
export class ChannelCreator {
  constructor(
    private readonly channels: ChannelsRepository,
    private readonly tenancy: TenancyRepository,
    private readonly brands: BrandAccess,
    private readonly box: CredentialsBox,
  ) {}

  async create(scope: TenantScope, body: CreateChannelRequest): Promise<Channel> {
    const problems = kindProblems(body.kind, body, true);
    if (problems.length) throw ApiError.validation(problems);
    await assertClientAndBrand(this.tenancy, this.brands, scope, body.clientId, body.brandId);
    return this.channels.create(scope.organizationId, {
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
  }
}
