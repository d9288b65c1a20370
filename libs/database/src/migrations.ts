import { CreateEventStore1763700000000 } from '@libs/event-store';
import { CreateProjectionCheckpoints1763700000100 } from '@libs/projection-engine';
import { AddOpportunityDocuments1763700004000, AddOpportunityDueBuckets1763700004100, CreateEventTypeCounts1763700000200, CreateOpportunityReadModels1763700002000 } from '@projections';
import { CreateTenancy1763700001000 } from '@libs/tenancy';
import { CreateAccess1763700001100 } from '@libs/auth';
import { CreateApiUsage1763700001200 } from '@libs/usage';
import { CreateWebhooks1763700003000 } from '@libs/webhooks';

/** Every migration of the service, in order. Each module owns its own; this list composes them. */
export const ALL_MIGRATIONS = [
  CreateEventStore1763700000000,
  CreateProjectionCheckpoints1763700000100,
  CreateEventTypeCounts1763700000200,
  CreateTenancy1763700001000,
  CreateAccess1763700001100,
  CreateApiUsage1763700001200,
  CreateOpportunityReadModels1763700002000,
  CreateWebhooks1763700003000,
  AddOpportunityDocuments1763700004000,
  AddOpportunityDueBuckets1763700004100,
];
