import { webhookDeliveriesProjector } from './webhook-deliveries.projector';

export { webhookDeliveriesProjector };
/** The webhook dispatcher (its table, `webhook_opportunity_facts`, is created by libs/webhooks' migration). */
export const WEBHOOK_PROJECTORS = [webhookDeliveriesProjector];
