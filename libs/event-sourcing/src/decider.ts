/**
 * A decider (Jérémie Chassaing's pattern): the whole write-side behaviour of one kind of stream as
 * three pure functions. `decide` judges a command against the current state and returns the events
 * to record (or throws the domain's refusal); `evolve` folds one event into the state; the state
 * before any event is `initialState`. Infrastructure (load, append at the expected revision, retry
 * on conflict) lives in libs/event-store's `DecisionRunner`.
 */
export interface Decider<S, C, E> {
  readonly initialState: S;
  evolve(state: S, event: E): S;
  decide(command: C, state: S): E[];
}

/** The state after the events, from `from` (the decider's initial state by default). */
export function fold<S, C, E>(decider: Decider<S, C, E>, events: Iterable<E>, from: S = decider.initialState): S {
  let state = from;
  for (const event of events) state = decider.evolve(state, event);
  return state;
}
