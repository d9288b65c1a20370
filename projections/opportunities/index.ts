import { OPPORTUNITIES } from '@libs/opportunities';
import type { AnyTableShape } from '@libs/projection-engine';
import { OPPORTUNITY_LIST_COUNTS } from './opportunities.projector';
import { OPPORTUNITY_COUNT_MEMBERS, OPPORTUNITY_COUNTS, OPPORTUNITY_DUE_BUCKETS } from './opportunity-counts.projector';
import { OPPORTUNITY_OUTCOME_FACTS, OPPORTUNITY_OUTCOMES } from './opportunity-outcomes.projector';
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
/** Their tables' shapes (`opportunities` declared by libs/opportunities, which reads it row by row). */
export const OPPORTUNITY_TABLES: readonly AnyTableShape[] = [OPPORTUNITIES, OPPORTUNITY_LIST_COUNTS, OPPORTUNITY_COUNTS, OPPORTUNITY_COUNT_MEMBERS, OPPORTUNITY_DUE_BUCKETS, OPPORTUNITY_OUTCOMES, OPPORTUNITY_OUTCOME_FACTS];
