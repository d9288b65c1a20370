import type { Projector } from '@libs/projection-engine';
import { eventTypeCountsProjector } from './event-type-counts.projector';
import { opportunitiesProjector } from './opportunities.projector';
import { opportunityCountsProjector } from './opportunity-counts.projector';
import { opportunityOutcomesProjector } from './opportunity-outcomes.projector';
import { webhookDeliveriesProjector } from './webhook-deliveries.projector';

export { eventTypeCountsProjector } from './event-type-counts.projector';
export { opportunitiesProjector } from './opportunities.projector';
export { opportunityCountsProjector } from './opportunity-counts.projector';
export { opportunityOutcomesProjector } from './opportunity-outcomes.projector';
export { webhookDeliveriesProjector } from './webhook-deliveries.projector';
export { CreateEventTypeCounts1763700000200 } from './migrations/1763700000200-create-event-type-counts';
export { CreateOpportunityReadModels1763700002000 } from './migrations/1763700002000-create-opportunity-read-models';
export { AddOpportunityDocuments1763700004000 } from './migrations/1763700004000-add-opportunity-documents';
export { AddOpportunityDueBuckets1763700004100 } from './migrations/1763700004100-add-opportunity-due-buckets';

/** Every projector the worker runs, by name. */
export const ALL_PROJECTORS: Projector[] = [eventTypeCountsProjector, opportunitiesProjector, opportunityCountsProjector, opportunityOutcomesProjector, webhookDeliveriesProjector];
