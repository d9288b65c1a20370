export * from './domain';
export * from './signing';
export * from './ssrf/ssrf-guard';
export * from './webhooks.repository';
export * from './webhooks.module';
export { WebhookDeliveryService, DELIVERY_QUEUE, bullPrefix, jobIdOf } from './delivery/webhook-delivery.service';
export { WebhookSender } from './delivery/webhook-sender';
export { CreateWebhooks1763700003000 } from './migrations/1763700003000-create-webhooks';
export * from './ids';
