import { Body, Controller, Param, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { InjectConfig } from '@libs/config';
import { ApiError, ParseIdPipe } from '@libs/http';
import { WebhookResponse } from '../webhook.dto';
import { checkedWebhookUrl, scopeOf } from '../webhook-access';
import { WebhooksRepository } from '../webhooks.repository';
import { UpdateWebhookRequest } from './update-webhook.request.dto';
import { WEBHOOKS_CONFIG, type WebhooksConfig } from '../webhooks.config';

@ApiTags('Webhooks')
@Controller('api/v1/webhooks')
export class UpdateWebhookController {
  constructor(
    private readonly webhooks: WebhooksRepository,
    @InjectConfig(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
  ) {}

  @Patch(':id')
  @RequireScope('write:webhooks')
  @ApiOperation({ operationId: 'webhooks_update', summary: 'Change url, events, description or isActive', description: 'The secret and the custom headers cannot be changed (400): create a new subscription instead. isActive true re-activates a deactivated subscription.' })
  @ApiOkResponse({ type: WebhookResponse })
  async update(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number, @Body() body: UpdateWebhookRequest): Promise<WebhookResponse> {
    const url = body.url === undefined ? undefined : await checkedWebhookUrl(body.url, this.config.allowPrivateUrls);
    const updated = await this.webhooks.update(scopeOf(p), id, { url, events: body.events, description: body.description, isActive: body.isActive });
    if (!updated) throw ApiError.notFound(`Webhook ${id}`);
    return { data: updated };
  }
}
