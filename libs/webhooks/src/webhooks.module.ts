import { Module } from '@nestjs/common';
import { QueueModule } from '@libs/queue';
import { CreateWebhookController } from './create-webhook/create-webhook.http.controller';
import { DeleteWebhookController } from './delete-webhook/delete-webhook.http.controller';
import { WebhookDeliveryProcessor } from './deliver-webhooks/webhook-delivery.processor';
import { GetWebhookController } from './get-webhook/get-webhook.http.controller';
import { ListWebhookDeliveriesController } from './list-webhook-deliveries/list-webhook-deliveries.http.controller';
import { ListWebhookEventsController } from './list-webhook-events/list-webhook-events.http.controller';
import { ListWebhooksController } from './list-webhooks/list-webhooks.http.controller';
import { TestWebhookController } from './test-webhook/test-webhook.http.controller';
import { UpdateWebhookController } from './update-webhook/update-webhook.http.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhookSecretBox } from './secret-box';

/** The API side: subscriptions, event types, delivery history, test deliveries. */
@Module({
  controllers: [
    ListWebhooksController,
    CreateWebhookController,
    ListWebhookEventsController,
    GetWebhookController,
    UpdateWebhookController,
    DeleteWebhookController,
    ListWebhookDeliveriesController,
    TestWebhookController,
  ],
  providers: [WebhooksRepository, WebhookSecretBox],
  exports: [WebhooksRepository, WebhookSecretBox],
})
export class WebhooksModule {}

/** The worker side: the outbox relay, the BullMQ delivery processor (on libs/queue) and the reconciler. */
@Module({
  imports: [QueueModule],
  providers: [WebhookDeliveryProcessor, WebhookSecretBox],
  exports: [WebhookDeliveryProcessor],
})
export class WebhookDeliveryModule {}
