import { CreateEventStore1763700000000 } from '../../event-store/src';
import { CreateProjectionCheckpoints1763700000100 } from '../../projection-engine/src';
import { AddOpportunityDocuments1763700004000, AddOpportunityDueBuckets1763700004100, CreateEventTypeCounts1763700000200, CreateOpportunityReadModels1763700002000 } from '../../../projections';
import { CreateTenancy1763700001000 } from '../../tenancy/src';
import { CreateAccess1763700001100 } from '../../auth/src';
import { CreateApiUsage1763700001200 } from '../../usage/src';
import { CreateWebhooks1763700003000 } from '../../webhooks/src';

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
