/**
 * Given/when/then for deciders, for specs (assertions through node:assert, so any test runner
 * shows the difference):
 *
 *   const spec = deciderSpec(opportunityDecider);
 *   spec.given([detected]).when(command).then([expectedEvent]);
 *   spec.given([]).when(command).thenError((e) => e instanceof RuleError && e.rule === 'not_found');
 */
import { deepStrictEqual } from 'node:assert/strict';
import { fold, type Decider } from './decider';

export interface DeciderSpec<S, C, E> {
  given(events: readonly E[]): {
    readonly state: S;
    when(command: C): {
      /** The decision is exactly these events (and evolving them does not throw). */
      then(expected: readonly E[]): S;
      /** The decision is refused with an error `matches` accepts; returns the error. */
      thenError<X = unknown>(matches: (error: unknown) => error is X): X;
      thenError(matches: (error: unknown) => boolean): unknown;
    };
  };
}

export function deciderSpec<S, C, E>(decider: Decider<S, C, E>): DeciderSpec<S, C, E> {
  return {
    given(events) {
      const state = fold(decider, events);
      return {
        state,
        when(command) {
          const run = (): { events: E[] } | { error: unknown } => {
            try {
              return { events: decider.decide(command, state) };
            } catch (error) {
              return { error };
            }
          };
          return {
            then(expected) {
              const outcome = run();
              if ('error' in outcome) throw new Error(`expected events, the decider refused: ${String(outcome.error)}`);
              deepStrictEqual(outcome.events, expected);
              return fold(decider, outcome.events, state);
            },
            thenError(matches: (error: unknown) => boolean) {
              const outcome = run();
              if ('events' in outcome) throw new Error(`expected a refusal, the decider decided ${JSON.stringify(outcome.events)}`);
              if (!matches(outcome.error)) throw outcome.error instanceof Error ? outcome.error : new Error(String(outcome.error));
              return outcome.error;
            },
          };
        },
      };
    },
  };
}
