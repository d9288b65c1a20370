import { isDeepStrictEqual } from 'node:util';
import type { Decider } from '@libs/event-sourcing';
import { marketFields, type AnswerAnalysed, type AnswerEvent, type AnswerFailed, type AnswerRecorded } from './analysis-events';
import { AnalysisRuleError } from './analysis-rules';

/** What an answer's stream says: how its question ended (its answer or its failure) and its latest analysis. */
export interface AnswerState {
  /** The answer recorded or the failure, whichever came first (null: not asked yet). */
  readonly ending: AnswerRecorded | AnswerFailed | null;
  /** The latest analysis of the recorded answer (a re-analysis replaces it). */
  readonly analysis: AnswerAnalysed['data'] | null;
}

/** What the answer-analysis engine read in one answer (what `answer.analysed` adds to the answer's key). */
export type AnswerAnalysis = Pick<AnswerAnalysed['data'], 'engineVersion' | 'entities' | 'citations' | 'claims'>;

export type AnswerCommand =
  /** The engine answered: record it. */
  | { kind: 'record'; answer: AnswerRecorded['data'] }
  /** The question failed for good: record why. */
  | { kind: 'fail'; failure: AnswerFailed['data'] }
  /** The first analysis of the recorded answer. */
  | { kind: 'analyse'; analysis: AnswerAnalysis; analysedAt: string }
  /** Another analysis (a newer engine, the brand's names changed): recorded when it differs from the latest. */
  | { kind: 'reanalyse'; analysis: AnswerAnalysis; analysedAt: string };

function recordedAnswer(state: AnswerState): AnswerRecorded['data'] {
  if (state.ending?.type !== 'answer.recorded') throw new AnalysisRuleError('not_recorded', state.ending ? 'the question failed: there is no answer to analyse' : 'the answer is not recorded');
  return state.ending.data;
}

/** The `answer.analysed` event of an analysis of the recorded answer `d`: the answer's key, when it was asked, then the analysis. */
function analysed(d: AnswerRecorded['data'], analysis: AnswerAnalysis, analysedAt: string): AnswerAnalysed {
  return {
    type: 'answer.analysed',
    data: { runId: d.runId, n: d.n, organizationId: d.organizationId, brandId: d.brandId, promptId: d.promptId, query: d.query, provider: d.provider, ...marketFields(d), askedAt: d.askedAt, analysedAt, ...analysis },
  };
}

/** Whether two analyses read the same (compared as values: the store may give a stored object's keys back in another order). */
function sameAnalysis(latest: AnswerAnalysed['data'], next: AnswerAnalysis): boolean {
  return latest.engineVersion === next.engineVersion && isDeepStrictEqual(latest.entities, next.entities) && isDeepStrictEqual(latest.citations, next.citations);
}

/**
 * One question of a run (`answer-<runId>-<n>`): it ends once, recorded or failed (a second
 * attempt of the question, a job killed mid-way and retried, decides nothing: the first ending
 * stands); a recorded answer is analysed once by its job, then re-analysed only when the
 * analysis changes.
 */
export const answerDecider: Decider<AnswerState, AnswerCommand, AnswerEvent> = {
  initialState: { ending: null, analysis: null },

  evolve(state, event) {
    switch (event.type) {
      case 'answer.recorded':
      case 'answer.failed':
        return state.ending ? state : { ...state, ending: event };
      case 'answer.analysed':
        return { ...state, analysis: event.data };
    }
  },

  decide(command, state) {
    switch (command.kind) {
      case 'record':
        return state.ending ? [] : [{ type: 'answer.recorded', data: { ...command.answer } }];
      case 'fail':
        return state.ending ? [] : [{ type: 'answer.failed', data: { ...command.failure } }];
      case 'analyse': {
        const answer = recordedAnswer(state);
        return state.analysis ? [] : [analysed(answer, command.analysis, command.analysedAt)];
      }
      case 'reanalyse': {
        const answer = recordedAnswer(state);
        return state.analysis && sameAnalysis(state.analysis, command.analysis) ? [] : [analysed(answer, command.analysis, command.analysedAt)];
      }
    }
  },
};
