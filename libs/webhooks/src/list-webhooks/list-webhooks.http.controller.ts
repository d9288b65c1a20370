import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { page } from '@libs/http';
import { ListWebhooksQuery } from './list-webhooks.request.dto';
import { scopeOf } from '../webhook-access';
import { WebhooksRepository } from '../webhooks.repository';
import { WebhookListResponse } from './list-webhooks.response.dto';

@ApiTags('Webhooks')
@Controller('api/v1/webhooks')
export class ListWebhooksController {
  constructor(private readonly webhooks: WebhooksRepository) {}

  @Get()
  @RequireScope('read:webhooks')
  @ApiOperation({ operationId: 'webhooks_list', summary: "The organisation's webhook subscriptions, newest first (paginated)", description: 'sort: createdAt (default) or id; order: desc (default) or asc.' })
  @ApiOkResponse({ type: WebhookListResponse })
  async list(@CurrentPrincipal() p: Principal, @Query() q: ListWebhooksQuery): Promise<WebhookListResponse> {
    const { rows, total } = await this.webhooks.list(scopeOf(p), q.limit, q.offset, q.order);
    return page(rows, total, q);
  }
}
