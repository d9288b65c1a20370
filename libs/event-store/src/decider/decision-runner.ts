import { fold, type Decider } from '@libs/event-sourcing';
import type { EventStore } from '../event-store.port';
import { WrongExpectedRevisionError } from '../event-store.errors';
import { ExpectedRevision, START, type EventMetadata, type EventToAppend, type FeedPosition, type RecordedEvent } from '../event.types';

/** A state to decide on, the stream revision it reflects (-1: no stream yet) and where it was read. */
export interface LoadedState<S> {
  state: S;
  revision: number;
  /** `stream`: folded from the stream (authoritative); `projection`: read from a read model, possibly behind. */
  source: 'stream' | 'projection';
}

export interface DecisionResult<S, E> {
  /** The state after the recorded events. */
  state: S;
  /** The stream's revision after the append. */
  revision: number;
  /** Feed position of the last recorded event (for read-your-writes waits); START when nothing was recorded. */
  position: FeedPosition;
  events: E[];
  /** The state after the decision with its revision: the next command on the stream decides on it without reading the stream again. */
  loaded: LoadedState<S>;
}

/** A new stream's decided events, ready for `appendNewStreams`. */
export interface NewStream<S = unknown> {
  streamId: string;
  events: EventToAppend[];
  /** The state after them. */
  state: S;
}

/**
 * Appends new streams decided by `DecisionRunner.decideNew` (one runner's or several): in one
 * transaction where the store has the bulk path, else stream by stream; every stream must not
 * exist yet ("no stream"), else WrongExpectedRevisionError (the bulk path then writes nothing).
 */
export async function appendNewStreams(store: EventStore, streams: readonly Pick<NewStream, 'streamId' | 'events'>[]): Promise<void> {
  if (!streams.length) return;
  if (store.appendToNewStreams) await store.appendToNewStreams(streams);
  else for (const s of streams) await store.appendToStream(s.streamId, s.events, ExpectedRevision.noStream);
}

/** How a module's streams are decided: its decider, its events' typed decoding, its refusals. */
export interface DecisionRunnerOptions<S, C, E extends { type: string; data: unknown }> {
  decider: Decider<S, C, E>;
  /** A recorded event of the stream as a member of the decider's event union. */
  decode(event: RecordedEvent): E;
  /** Whether an error thrown by `decide` is a domain refusal (re-checked on the stream when the state came from a projection). */
  isRefusal(error: unknown): boolean;
  /** The error to throw when the stream kept changing under every attempt. */
  conflict(streamId: string): Error;
  /** Attempts before `conflict` (each retry decides again on the newer state). Default 25. */
  maxAttempts?: number;
}

const DEFAULT_ATTEMPTS = 25;

/**
 * The one command handler of every event-sourced module: load → decide → append at the expected
 * revision → on a conflict (someone appended first) load again and decide again, so a concurrent
 * command is judged against the state the other produced; nothing is lost, nothing applied twice.
 *
 * "Decide from a given first state": a caller may pass the state it already loaded (typically a
 * read model's row, one index probe instead of reading and folding the stream). The first attempt
 * decides on it and appends with its revision: a row is never newer than the stream, and when it
 * is older the append's expected revision fails and the runner decides again on the stream's fold
 * at once. A refusal on a projected state is checked again on the stream before it is reported.
 *
 * A decision of no events (the command is already satisfied: a question answered once, a run
 * completed once) appends nothing. A caller that has just decided on a stream keeps going from
 * the result (`loaded`: the state after its events, at the revision they were appended at), so a
 * chain of commands on one stream (record, then analyse) reads it at most once.
 */
export class DecisionRunner<S, C, E extends { type: string; data: unknown }> {
  private readonly maxAttempts: number;

  constructor(
    private readonly store: EventStore,
    private readonly options: DecisionRunnerOptions<S, C, E>,
  ) {
    this.maxAttempts = options.maxAttempts ?? DEFAULT_ATTEMPTS;
  }

  /** The stream's events, typed. */
  async history(streamId: string): Promise<{ recorded: RecordedEvent[]; events: E[] }> {
    const recorded = await this.store.readStream(streamId);
    return { recorded, events: recorded.map((e) => this.options.decode(e)) };
  }

  /** The state folded from the stream. */
  async load(streamId: string): Promise<LoadedState<S>> {
    const { recorded, events } = await this.history(streamId);
    return { state: fold(this.options.decider, events), revision: recorded.length ? Number(recorded[recorded.length - 1].streamPosition) : -1, source: 'stream' };
  }

  /**
   * The state of a stream known not to exist yet (its id was just allocated): a decision on it
   * appends with "no stream" without reading the stream first; if the stream exists after all,
   * the append fails and the runner decides again on its fold.
   */
  newStream(): LoadedState<S> {
    return { state: this.options.decider.initialState, revision: -1, source: 'stream' };
  }

  /**
   * Decides `commands` in order on a new stream, each on the state the previous ones led to, with
   * no I/O: the events to append with others in one bulk append (`appendNewStreams`), for imports
   * and seeding. Throws the decider's refusals.
   */
  decideNew(streamId: string, commands: readonly C[], metadata: EventMetadata): NewStream<S> {
    const { decider } = this.options;
    let state = decider.initialState;
    const events: EventToAppend[] = [];
    for (const command of commands) {
      const decided = decider.decide(command, state);
      state = fold(decider, decided, state);
      for (const e of decided) events.push({ type: e.type, data: e.data as Record<string, unknown>, metadata });
    }
    return { streamId, events, state };
  }

  /** The state folded from the events recorded up to `asOf`. */
  async loadAsOf(streamId: string, asOf: Date): Promise<S> {
    const { recorded, events } = await this.history(streamId);
    return fold(this.options.decider, events.filter((_, i) => recorded[i].recordedAt.getTime() <= asOf.getTime()));
  }

  /**
   * Decides `command(state)` on the stream's latest state and records the events with `metadata`.
   * `loaded`: the state to decide on first (see the class comment).
   */
  run(streamId: string, command: (state: S) => C, metadata: EventMetadata, loaded?: LoadedState<S>): Promise<DecisionResult<S, E>> {
    return this.runAll(streamId, (state) => [command(state)], metadata, loaded);
  }

  /**
   * Decides the commands `commands(state)` gives in order, each on the state the previous ones led
   * to, and records all their events in one append (one round trip, all or nothing): a chain of
   * commands on one stream (record, then analyse) that would otherwise append once each. On a
   * conflict `commands` is asked again with the newer state.
   */
  async runAll(streamId: string, commands: (state: S) => readonly C[], metadata: EventMetadata, loaded?: LoadedState<S>): Promise<DecisionResult<S, E>> {
    const { decider, isRefusal } = this.options;
    for (let attempt = 0; attempt < this.maxAttempts; attempt++) {
      const first = attempt === 0 && loaded !== undefined;
      const current = first ? loaded : await this.load(streamId);
      const events: E[] = [];
      try {
        let state = current.state;
        for (const command of commands(current.state)) {
          const decided = decider.decide(command, state);
          if (decided.length) state = fold(decider, decided, state);
          events.push(...decided);
        }
      } catch (error) {
        if (first && loaded.source === 'projection' && isRefusal(error)) continue;
        throw error;
      }
      if (!events.length) {
        // Nothing to record (the command is already satisfied): no append. Said on a projected state, it is checked on the stream.
        if (first && loaded.source === 'projection') continue;
        return { state: current.state, revision: current.revision, position: START, events, loaded: { ...current, source: 'stream' } };
      }
      try {
        const result = await this.store.appendToStream(
          streamId,
          events.map((e) => ({ type: e.type, data: e.data as Record<string, unknown>, metadata })),
          current.revision < 0 ? ExpectedRevision.noStream : ExpectedRevision.exact(current.revision),
        );
        const state = fold(decider, events, current.state);
        const revision = Number(result.nextExpectedRevision);
        return { state, revision, position: result.position, events, loaded: { state, revision, source: 'stream' } };
      } catch (error) {
        if (error instanceof WrongExpectedRevisionError) {
          // A first attempt on a given (possibly projected, older) state retries at once on the stream.
          if (attempt > 0 || loaded === undefined) await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, 2 ** attempt)));
          continue;
        }
        throw error;
      }
    }
    throw this.options.conflict(streamId);
  }
}
