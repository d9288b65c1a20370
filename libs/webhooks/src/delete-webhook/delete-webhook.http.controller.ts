import { Controller, Delete, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ApiError, ParseIdPipe } from '@libs/http';
import { scopeOf } from '../webhook-access';
import { WebhooksRepository } from '../webhooks.repository';
import { DeletedWebhookResponse } from './delete-webhook.response.dto';

@ApiTags('Webhooks')
@Controller('api/v1/webhooks')
export class DeleteWebhookController {
  constructor(private readonly webhooks: WebhooksRepository) {}

  @Delete(':id')
  @RequireScope('write:webhooks')
  @ApiOperation({ operationId: 'webhooks_remove', summary: 'Delete a webhook subscription and its delivery history; nothing more is sent to it' })
  @ApiOkResponse({ type: DeletedWebhookResponse })
  async remove(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number): Promise<DeletedWebhookResponse> {
    if (!(await this.webhooks.delete(scopeOf(p), id))) throw ApiError.notFound(`Webhook ${id}`);
    return { data: { id, deleted: true } };
  }
}
