import type { AnyTableShape } from '@libs/projection-engine';
import { WEBHOOK_OPPORTUNITY_STATES } from './webhook-deliveries.projector';
import { webhookDeliveriesProjector } from './webhook-deliveries.projector';
import { WebhookOpportunityStates1763700005100 } from './migrations/1763700005100-webhook-opportunity-states';

export { webhookDeliveriesProjector };
/** The webhook dispatcher (its table, `webhook_opportunity_states`, is created by the migration beside it). */
export const WEBHOOK_PROJECTORS = [webhookDeliveriesProjector];
export const WEBHOOK_MIGRATIONS = { opportunityStates: WebhookOpportunityStates1763700005100 };
/** Its table's shape. */
export const WEBHOOK_TABLES: readonly AnyTableShape[] = [WEBHOOK_OPPORTUNITY_STATES];
