export * from './domain';
export * from './ssrf-guard';
export * from './webhooks.repository';
export * from './webhooks.module';
export * from './webhooks.config';
export { WebhookDeliveryProcessor, DELIVERY_QUEUE, deliveryQueue, jobIdOf } from './deliver-webhooks/webhook-delivery.processor';
export { WebhookSender } from './deliver-webhooks/webhook-sender';
export { CreateWebhooks1763700003000 } from './migrations/1763700003000-create-webhooks';
export { DOMAIN_EVENT_TYPES, opportunityFactsOf, webhookEventsFor, type OpportunityFacts, type Recorded } from './dispatch-webhooks/opportunity-webhook-events';
