import { ExpectedRevision } from './event.types';

/** The stream was not at the revision the caller decided on (optimistic concurrency). */
export class WrongExpectedRevisionError extends Error {
  override readonly name = 'WrongExpectedRevisionError';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    /** The stream's actual revision, or null when it does not exist. */
    readonly actual: bigint | null,
  ) {
    super(
      `append to ${streamId} expected ${ExpectedRevision.describe(expected)} but the stream is ` +
        (actual === null ? 'absent' : `at revision ${actual}`),
    );
  }
}

export class EventStoreUnavailableError extends Error {
  override readonly name = 'EventStoreUnavailableError';
}

/** An append carried an event id the store already holds; nothing of the append was written. */
export class DuplicateEventIdError extends Error {
  override readonly name = 'DuplicateEventIdError';
  constructor(
    readonly streamId: string,
    readonly eventIds: readonly string[],
  ) {
    super(`append to ${streamId} was not written: its event ids (${eventIds.join(', ')}) were already appended`);
  }
}
