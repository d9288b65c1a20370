import { DecisionRunner, type DecisionRunnerOptions, type EventStore } from '@libs/event-store';
import {
  analysisRunDecider,
  AnalysisRuleError,
  answerDecider,
  asAnalysisRunEvent,
  asAnswerEvent,
  type AnalysisRunCommand,
  type AnalysisRunEvent,
  type AnalysisRunState,
  type AnswerCommand,
  type AnswerEvent,
  type AnswerState,
} from '../domain';

export type AnalysisRunRunner = DecisionRunner<AnalysisRunState, AnalysisRunCommand, AnalysisRunEvent>;
export type AnswerRunner = DecisionRunner<AnswerState, AnswerCommand, AnswerEvent>;

const isRefusal = (error: unknown) => error instanceof AnalysisRuleError;

/** The runs' streams (`analysis-run-<id>`) on the kit: the pure `analysisRunDecider` decides, the runner loads and appends. */
export function analysisRunRunner(store: EventStore): AnalysisRunRunner {
  return new DecisionRunner(store, {
    decider: analysisRunDecider,
    decode: asAnalysisRunEvent,
    isRefusal,
    conflict: (streamId) => new Error(`${streamId} kept changing; try again`),
  });
}

/** The answers' streams (`answer-<runId>-<n>`) on the kit: the pure `answerDecider` decides, the runner loads and appends. */
export function answerRunner(store: EventStore, options: Partial<Pick<DecisionRunnerOptions<AnswerState, AnswerCommand, AnswerEvent>, 'conflict' | 'maxAttempts'>> = {}): AnswerRunner {
  return new DecisionRunner(store, {
    decider: answerDecider,
    decode: asAnswerEvent,
    isRefusal,
    conflict: (streamId) => new Error(`${streamId} kept changing; try again`),
    ...options,
  });
}
