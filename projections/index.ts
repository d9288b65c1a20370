import type { Projector } from '../libs/projection-engine/src';
import { eventTypeCountsProjector } from './event-type-counts.projector';

export { eventTypeCountsProjector } from './event-type-counts.projector';
export { CreateEventTypeCounts1763700000200 } from './migrations/1763700000200-create-event-type-counts';

/** Every projector the worker runs, by name. */
export const ALL_PROJECTORS: Projector[] = [eventTypeCountsProjector];
