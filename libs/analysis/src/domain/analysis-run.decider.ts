import type { Decider } from '@libs/event-sourcing';
import { runOutcome, type AnalysisRunCompleted, type AnalysisRunEvent, type AnalysisRunRequested } from './analysis-events';
import { AnalysisRuleError } from './analysis-rules';

/** What a run's stream says: its request, whether it has started, how it ended. */
export interface AnalysisRunState {
  readonly requested: AnalysisRunRequested['data'] | null;
  readonly started: boolean;
  readonly completed: AnalysisRunCompleted['data'] | null;
}

export type AnalysisRunCommand =
  /** Record the request of a new run (its id allocated, its items numbered). */
  | { kind: 'request'; run: AnalysisRunRequested['data'] }
  /** The first question of the run is being asked. */
  | { kind: 'start'; startedAt: string }
  /** Every answer of the run has ended: so many recorded, so many failed. */
  | { kind: 'complete'; answersRecorded: number; answersFailed: number; completedAt: string; answersNotAsked?: number };

function requested(state: AnalysisRunState): AnalysisRunRequested['data'] {
  if (!state.requested) throw new AnalysisRuleError('not_requested', 'the run was never requested');
  return state.requested;
}

/**
 * An analysis run's stream (`analysis-run-<id>`): requested, then started, then completed, each
 * once. Starting or completing again decides nothing (several jobs of a run race to start it; the
 * job ending the last answer may be retried), so the first `started` and the first `completed`
 * stand; a run that has completed is not started afterwards.
 */
export const analysisRunDecider: Decider<AnalysisRunState, AnalysisRunCommand, AnalysisRunEvent> = {
  initialState: { requested: null, started: false, completed: null },

  evolve(state, event) {
    switch (event.type) {
      case 'analysis_run.requested':
        return { ...state, requested: event.data };
      case 'analysis_run.started':
        return { ...state, started: true };
      case 'analysis_run.completed':
        return state.completed ? state : { ...state, completed: event.data };
    }
  },

  decide(command, state) {
    switch (command.kind) {
      case 'request':
        if (state.requested) throw new AnalysisRuleError('already_requested', `run ${state.requested.runId} is already requested`);
        return [{ type: 'analysis_run.requested', data: { ...command.run } }];
      case 'start': {
        const { runId } = requested(state);
        if (state.started || state.completed) return [];
        return [{ type: 'analysis_run.started', data: { runId, startedAt: command.startedAt } }];
      }
      case 'complete': {
        const { runId } = requested(state);
        if (state.completed) return [];
        const { answersRecorded, answersFailed, completedAt } = command;
        const notAsked = command.answersNotAsked ?? 0;
        const status = runOutcome(answersRecorded, answersFailed, notAsked);
        const budget = notAsked > 0 ? { reason: 'budget_exhausted' as const, answersNotAsked: notAsked } : {};
        return [{ type: 'analysis_run.completed', data: { runId, status, answersRecorded, answersFailed, completedAt, ...budget } }];
      }
    }
  },
};
