import { Injectable } from '@nestjs/common';
import type { Principal } from '@libs/auth';
import { ApiError } from '@libs/http';
import type { TenantScope } from '@libs/tenancy';
import { ChannelsRepository, type Channel } from './channels.repository';

export const scopeOf = (p: Principal): TenantScope => ({ organizationId: p.organizationId, clientId: p.clientId });

/** The one door to a channel: the caller's organisation and, for a client-bound key, its client; anything else is 404. */
@Injectable()
export class ChannelAccess {
  constructor(private readonly channels: ChannelsRepository) {}

  async resolve(p: Principal, id: number): Promise<Channel> {
    const channel = await this.channels.find(scopeOf(p), id);
    if (!channel) throw ApiError.notFound(`Channel ${id}`);
    return channel;
  }
}
