import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { APP_CONFIG, type AppConfig } from '@libs/config';
import { ApiError, PaginationQuery, ParseIdPipe, page, sortColumn } from '@libs/http';
import { WEBHOOK_EVENT_CATALOG, WEBHOOK_EVENT_TYPES } from '../domain';
import { blockedUrlReason } from '../ssrf/ssrf-guard';
import { WebhooksRepository, type Webhook, type WebhookScope } from '../webhooks.repository';
import { CreateWebhookRequest, DeliveriesQuery, UpdateWebhookRequest } from './webhook.request.dto';
import {
  CreatedWebhookResponse, DeletedWebhookResponse, DeliveryListResponse, EventTypesResponse, QueuedTestResponse, WebhookListResponse, WebhookResponse,
} from './webhook.response.dto';

const scopeOf = (p: Principal): WebhookScope => ({ organizationId: p.organizationId, clientId: p.clientId });

const SIGNING =
  'Deliveries are POSTed as JSON `{type, timestamp, data}` and signed per Standard Webhooks: headers `webhook-id` (stable across retries: de-duplicate on it), ' +
  '`webhook-timestamp` (seconds) and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` keyed with the secret after `whsec_`, base64-decoded). ' +
  'A 2xx is success; anything else (redirects are not followed) or no answer within 15 s is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, ' +
  'or later when `Retry-After` asks; 410 deactivates the subscription, as do 5 days of nothing but failures.';

@ApiTags('Webhooks')
@Controller('api/v1/webhooks')
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhooksRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @RequireScope('read:webhooks')
  @ApiOperation({ summary: "The organisation's webhook subscriptions, newest first (paginated)", description: 'sort: createdAt (default) or id; order: desc (default) or asc.' })
  @ApiOkResponse({ type: WebhookListResponse })
  async list(@CurrentPrincipal() p: Principal, @Query() q: PaginationQuery): Promise<WebhookListResponse> {
    sortColumn(q.sort, { createdAt: 'id', id: 'id' }, 'createdAt');
    const { rows, total } = await this.webhooks.list(scopeOf(p), q.limit, q.offset, q.order);
    return page(rows, total, q);
  }

  @Post()
  @RequireScope('write:webhooks')
  @ApiOperation({ summary: 'Subscribe a URL to event types; the answer carries the signing secret, shown this once', description: SIGNING })
  @ApiCreatedResponse({ type: CreatedWebhookResponse })
  async create(@CurrentPrincipal() p: Principal, @Body() body: CreateWebhookRequest): Promise<CreatedWebhookResponse> {
    const url = await this.checkUrl(body.url);
    const created = await this.webhooks.create(scopeOf(p), {
      url,
      events: body.events,
      description: body.description ?? null,
      headers: body.headers ?? {},
      isActive: body.isActive ?? true,
    });
    return { data: created };
  }

  @Get('events')
  @RequireScope('read:webhooks')
  @ApiOperation({
    summary: 'Every event type a subscription can list',
    description: `data: the type names; details: each with its meaning and an example payload. ${WEBHOOK_EVENT_TYPES.map((t) => `\`${t}\`: ${WEBHOOK_EVENT_CATALOG[t].description}`).join(' ')}`,
  })
  @ApiOkResponse({ type: EventTypesResponse })
  events(): EventTypesResponse {
    return {
      data: [...WEBHOOK_EVENT_TYPES],
      details: WEBHOOK_EVENT_TYPES.map((type) => ({ type, description: WEBHOOK_EVENT_CATALOG[type].description, example: WEBHOOK_EVENT_CATALOG[type].example as unknown as Record<string, unknown> })),
    };
  }

  @Get(':id')
  @RequireScope('read:webhooks')
  @ApiOperation({ summary: 'One webhook subscription (never its secret)' })
  @ApiOkResponse({ type: WebhookResponse })
  async get(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number): Promise<WebhookResponse> {
    return { data: await this.found(p, id) };
  }

  @Patch(':id')
  @RequireScope('write:webhooks')
  @ApiOperation({ summary: 'Change url, events, description or isActive', description: 'The secret and the custom headers cannot be changed (400): create a new subscription instead. isActive true re-activates a deactivated subscription.' })
  @ApiOkResponse({ type: WebhookResponse })
  async update(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number, @Body() body: UpdateWebhookRequest): Promise<WebhookResponse> {
    const url = body.url === undefined ? undefined : await this.checkUrl(body.url);
    const updated = await this.webhooks.update(scopeOf(p), id, { url, events: body.events, description: body.description, isActive: body.isActive });
    if (!updated) throw ApiError.notFound(`Webhook ${id}`);
    return { data: updated };
  }

  @Delete(':id')
  @RequireScope('write:webhooks')
  @ApiOperation({ summary: 'Delete a webhook subscription and its delivery history; nothing more is sent to it' })
  @ApiOkResponse({ type: DeletedWebhookResponse })
  async remove(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number): Promise<DeletedWebhookResponse> {
    if (!(await this.webhooks.delete(scopeOf(p), id))) throw ApiError.notFound(`Webhook ${id}`);
    return { data: { id, deleted: true } };
  }

  @Get(':id/deliveries')
  @RequireScope('read:webhooks')
  @ApiOperation({ summary: "The subscription's deliveries, newest first, each with its attempts (status code, duration, error, response excerpt)" })
  @ApiOkResponse({ type: DeliveryListResponse })
  async deliveries(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number, @Query() q: DeliveriesQuery): Promise<DeliveryListResponse> {
    await this.found(p, id);
    return { data: await this.webhooks.deliveries(id, q.limit) };
  }

  @Post(':id/test')
  @HttpCode(200)
  @RequireScope('write:webhooks')
  @ApiOperation({ summary: 'Queue a signed webhook.test delivery; answers with its id (follow it in /deliveries)', description: '409 when the subscription is inactive.' })
  @ApiOkResponse({ type: QueuedTestResponse })
  @ApiConflictResponse({ description: 'The subscription is inactive' })
  async test(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number): Promise<QueuedTestResponse> {
    const webhook = await this.found(p, id);
    if (!webhook.isActive) throw new ApiError(409, 'CONFLICT', `Webhook ${id} is inactive; PATCH isActive true first`);
    const queued = await this.webhooks.queueTest(webhook);
    return { data: { deliveryId: queued.id, webhookId: id, eventType: 'webhook.test', status: 'pending' } };
  }

  private async found(p: Principal, id: number): Promise<Webhook> {
    const webhook = await this.webhooks.find(scopeOf(p), id);
    if (!webhook) throw ApiError.notFound(`Webhook ${id}`);
    return webhook;
  }

  /** The URL, normalised, after the SSRF check (its host resolved now; checked again at every connect). */
  private async checkUrl(text: string): Promise<string> {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      // The validator's URL syntax is looser than WHATWG's (a bad IDNA label, an IPv6 zone id).
      throw ApiError.validation([{ field: 'url', message: 'url must be an http or https URL' }]);
    }
    if (url.username || url.password) throw ApiError.validation([{ field: 'url', message: 'url must not carry credentials; send them in a custom header' }]);
    const reason = await blockedUrlReason(url, this.config.webhookAllowPrivateUrls);
    if (reason) throw ApiError.validation([{ field: 'url', message: reason }]);
    return url.toString();
  }
}
