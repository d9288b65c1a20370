import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ParseIdPipe } from '@libs/http';
import { webhookOr404 } from '../webhook-access';
import { WebhooksRepository } from '../webhooks.repository';
import { DeliveriesQuery } from './list-webhook-deliveries.request.dto';
import { DeliveryListResponse } from './list-webhook-deliveries.response.dto';

@ApiTags('Webhooks')
@Controller('api/v1/webhooks')
export class ListWebhookDeliveriesController {
  constructor(private readonly webhooks: WebhooksRepository) {}

  @Get(':id/deliveries')
  @RequireScope('read:webhooks')
  @ApiOperation({ operationId: 'webhooks_deliveries', summary: "The subscription's deliveries, newest first, each with its attempts (status code, duration, error, response excerpt)" })
  @ApiOkResponse({ type: DeliveryListResponse })
  async deliveries(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number, @Query() q: DeliveriesQuery): Promise<DeliveryListResponse> {
    await webhookOr404(this.webhooks, p, id);
    return { data: await this.webhooks.deliveries(id, q.limit) };
  }
}
