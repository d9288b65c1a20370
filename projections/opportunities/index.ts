import { opportunitiesProjector } from './opportunities.projector';
import { opportunityCountsProjector } from './opportunity-counts.projector';
import { opportunityOutcomesProjector } from './opportunity-outcomes.projector';
import { CreateOpportunityReadModels1763700002000 } from './migrations/1763700002000-create-opportunity-read-models';
import { AddOpportunityDocuments1763700004000 } from './migrations/1763700004000-add-opportunity-documents';
import { AddOpportunityDueBuckets1763700004100 } from './migrations/1763700004100-add-opportunity-due-buckets';
import { AddClientIds1763700004200 } from './migrations/1763700004200-add-client-ids';
import { AddOutcomeMentionRates1763700012100 } from './migrations/1763700012100-add-outcome-mention-rates';

export { opportunitiesProjector, opportunityCountsProjector, opportunityOutcomesProjector };
/** The opportunity queue's read models: the list and single read, the KPI counts and SLA buckets, the outcomes. */
export const OPPORTUNITY_PROJECTORS = [opportunitiesProjector, opportunityCountsProjector, opportunityOutcomesProjector];
export const OPPORTUNITY_MIGRATIONS = {
  create: CreateOpportunityReadModels1763700002000,
  documents: AddOpportunityDocuments1763700004000,
  dueBuckets: AddOpportunityDueBuckets1763700004100,
  clientIds: AddClientIds1763700004200,
  outcomeMentionRates: AddOutcomeMentionRates1763700012100,
};
