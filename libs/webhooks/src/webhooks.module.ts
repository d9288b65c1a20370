import { Module } from '@nestjs/common';
import { WebhookDeliveryService } from './delivery/webhook-delivery.service';
import { WebhooksController } from './http/webhooks.http.controller';
import { WebhooksRepository } from './webhooks.repository';

/** The API side: subscriptions, event types, delivery history, test deliveries. */
@Module({
  controllers: [WebhooksController],
  providers: [WebhooksRepository],
  exports: [WebhooksRepository],
})
export class WebhooksModule {}

/** The worker side: the outbox relay, the BullMQ delivery processor and the reconciler. */
@Module({
  providers: [WebhookDeliveryService],
  exports: [WebhookDeliveryService],
})
export class WebhookDeliveryModule {}
