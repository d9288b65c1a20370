export {
  EventStoreDbEventStore,
  createEventStoreDbEventStore,
  type EventStoreDbEventStoreOptions,
} from './eventstoredb-event-store';
export { EventStoreDbFeedWaker } from './eventstoredb-feed-waker';
export { DuplicateEventIdError, EventDecodingError } from './eventstoredb-mapping';
