import type { AnyTableShape } from '@libs/projection-engine';
import { EVENT_TYPE_COUNTS } from './event-type-counts.projector';
import { eventTypeCountsProjector } from './event-type-counts.projector';
import { CreateEventTypeCounts1763700000200 } from './migrations/1763700000200-create-event-type-counts';

export { eventTypeCountsProjector };
/** Operational read models (not a tenant's data: `event_type_counts` has no tenant ids, on purpose). */
export const OPERATIONS_PROJECTORS = [eventTypeCountsProjector];
export const OPERATIONS_MIGRATIONS = [CreateEventTypeCounts1763700000200];
/** Their tables' shapes. */
export const OPERATIONS_TABLES: readonly AnyTableShape[] = [EVENT_TYPE_COUNTS];
