import { Body, Controller, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { InjectConfig } from '@libs/config';
import { ApiError } from '@libs/http';
import { checkedWebhookUrl, scopeOf } from '../webhook-access';
import { WebhooksRepository } from '../webhooks.repository';
import { CreateWebhookRequest } from './create-webhook.request.dto';
import { CreatedWebhookResponse } from './create-webhook.response.dto';
import { WEBHOOKS_CONFIG, type WebhooksConfig } from '../webhooks.config';

const SIGNING =
  'Deliveries are POSTed as JSON `{type, timestamp, data}` and signed per Standard Webhooks: headers `webhook-id` (stable across retries: de-duplicate on it), ' +
  '`webhook-timestamp` (seconds) and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` keyed with the secret after `whsec_`, base64-decoded). ' +
  'A 2xx is success; anything else (redirects are not followed) or no answer within 15 s is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, ' +
  'or later when `Retry-After` asks; 410 deactivates the subscription, as do 5 days of nothing but failures.';

@ApiTags('Webhooks')
@Controller('api/v1/webhooks')
export class CreateWebhookController {
  constructor(
    private readonly webhooks: WebhooksRepository,
    @InjectConfig(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
  ) {}

  @Post()
  @RequireScope('write:webhooks')
  @ApiOperation({ operationId: 'webhooks_create', summary: 'Subscribe a URL to event types; the answer carries the signing secret, shown this once', description: SIGNING })
  @ApiCreatedResponse({ type: CreatedWebhookResponse })
  @ApiConflictResponse({ description: 'The organisation has as many subscriptions as it may (WEBHOOK_MAX_SUBSCRIPTIONS, default 100)' })
  async create(@CurrentPrincipal() p: Principal, @Body() body: CreateWebhookRequest): Promise<CreatedWebhookResponse> {
    const url = await checkedWebhookUrl(body.url, this.config.allowPrivateUrls);
    const created = await this.webhooks.create(scopeOf(p), {
      url,
      events: body.events,
      description: body.description ?? null,
      headers: body.headers ?? {},
      isActive: body.isActive ?? true,
    });
    if (!created) {
      throw new ApiError(409, 'CONFLICT', `The organisation has ${this.config.maxSubscriptions} webhook subscriptions, the most it may have; delete one first`, {
        limit: this.config.maxSubscriptions,
      });
    }
    return { data: created };
  }
}
