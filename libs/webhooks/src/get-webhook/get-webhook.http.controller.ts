import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ParseIdPipe } from '@libs/http';
import { WebhookResponse } from '../webhook.dto';
import { webhookOr404 } from '../webhook-access';
import { WebhooksRepository } from '../webhooks.repository';

@ApiTags('Webhooks')
@Controller('api/v1/webhooks')
export class GetWebhookController {
  constructor(private readonly webhooks: WebhooksRepository) {}

  @Get(':id')
  @RequireScope('read:webhooks')
  @ApiOperation({ operationId: 'webhooks_get', summary: 'One webhook subscription (never its secret)' })
  @ApiOkResponse({ type: WebhookResponse })
  async get(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number): Promise<WebhookResponse> {
    return { data: await webhookOr404(this.webhooks, p, id) };
  }
}
