import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ApiError, ParseIdPipe } from '@libs/http';
import { webhookOr404 } from '../webhook-access';
import { WebhooksRepository } from '../webhooks.repository';
import { QueuedTestResponse } from './test-webhook.response.dto';

@ApiTags('Webhooks')
@Controller('api/v1/webhooks')
export class TestWebhookController {
  constructor(private readonly webhooks: WebhooksRepository) {}

  @Post(':id/test')
  @HttpCode(200)
  @RequireScope('write:webhooks')
  @ApiOperation({ operationId: 'webhooks_test', summary: 'Queue a signed webhook.test delivery; answers with its id (follow it in /deliveries)', description: '409 when the subscription is inactive.' })
  @ApiOkResponse({ type: QueuedTestResponse })
  @ApiConflictResponse({ description: 'The subscription is inactive' })
  async test(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number): Promise<QueuedTestResponse> {
    const webhook = await webhookOr404(this.webhooks, p, id);
    if (!webhook.isActive) throw new ApiError(409, 'CONFLICT', `Webhook ${id} is inactive; PATCH isActive true first`);
    const queued = await this.webhooks.queueTest(webhook);
    return { data: { deliveryId: queued.id, webhookId: id, eventType: 'webhook.test', status: 'pending' } };
  }
}
