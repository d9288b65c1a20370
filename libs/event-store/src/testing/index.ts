/** The event store's test kit (`@libs/event-store/testing`): the contract every adapter passes. For specs, never for production code. */
export { describeEventStoreContract } from './event-store.contract';
