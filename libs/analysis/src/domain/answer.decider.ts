import { isDeepStrictEqual } from 'node:util';
import type { Decider } from '@libs/event-sourcing';
import { marketFields, type AnswerAnalysed, type AnswerEvent, type AnswerFailed, type AnswerJudged, type AnswerRecorded } from './analysis-events';
import { AnalysisRuleError } from './analysis-rules';

/** What an answer's stream says: how its question ended (its answer or its failure) and its latest analysis. */
export interface AnswerState {
  /** The answer recorded or the failure, whichever came first (null: not asked yet). */
  readonly ending: AnswerRecorded | AnswerFailed | null;
  /** The latest analysis of the recorded answer (a re-analysis replaces it). */
  readonly analysis: AnswerAnalysed['data'] | null;
  /** The latest sentiment judgement (null: never judged). Every analysis after it carries its labels. */
  readonly judgement?: AnswerJudged['data'] | null;
}

/** What the answer-analysis engine read in one answer (what `answer.analysed` adds to the answer's key). */
export type AnswerAnalysis = Pick<AnswerAnalysed['data'], 'engineVersion' | 'entities' | 'citations' | 'claims' | 'judge'>;

export type AnswerCommand =
  /** The engine answered: record it. */
  | { kind: 'record'; answer: AnswerRecorded['data'] }
  /** The question failed for good: record why. */
  | { kind: 'fail'; failure: AnswerFailed['data'] }
  /** The first analysis of the recorded answer. */
  | { kind: 'analyse'; analysis: AnswerAnalysis; analysedAt: string }
  /** Another analysis (a newer engine, the brand's names changed): recorded when it differs from the latest. */
  | { kind: 'reanalyse'; analysis: AnswerAnalysis; analysedAt: string }
  /** The sentiment judge's verdict: recorded, and the latest analysis decided again with its labels. */
  | { kind: 'judge'; judgement: AnswerJudged['data']; analysedAt: string };

/** The score a judge label stands for (the judge gives labels, not scores). */
export const JUDGE_LABEL_SCORE = { positive: 1, neutral: 0, negative: -1 } as const;

/**
 * An analysis with a judgement's labels: each mentioned entity the judge labelled takes its label
 * (score JUDGE_LABEL_SCORE, `labeller` the judge); the others keep the offline model's. A fallback
 * changes no label and is marked so the figures count it.
 */
export function withJudgement<A extends AnswerAnalysis>(analysis: A, judgement: AnswerJudged['data'] | null | undefined): A {
  if (!judgement) return analysis;
  const labels = new Map(judgement.labels.map((l) => [l.entityId, l.sentiment]));
  const entities = analysis.entities.map((e) => {
    const { labeller: _previous, ...offline } = e;
    const label = e.mentioned ? labels.get(e.entityId) : undefined;
    return label === undefined ? offline : { ...offline, sentiment: label, sentimentScore: JUDGE_LABEL_SCORE[label], labeller: judgement.labeller };
  });
  return { ...analysis, entities, judge: { labeller: judgement.labeller, outcome: judgement.outcome } } as A;
}

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
      case 'answer.judged':
        return { ...state, judgement: event.data };
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
        return state.analysis ? [] : [analysed(answer, withJudgement(command.analysis, state.judgement), command.analysedAt)];
      }
      case 'reanalyse': {
        const answer = recordedAnswer(state);
        // A re-analysis keeps the judge's labels: the judge is never asked again for it.
        const analysis = withJudgement(command.analysis, state.judgement);
        return state.analysis && sameAnalysis(state.analysis, analysis) ? [] : [analysed(answer, analysis, command.analysedAt)];
      }
      case 'judge': {
        const answer = recordedAnswer(state);
        if (!state.analysis) throw new AnalysisRuleError('not_analysed', 'the answer is not analysed yet: there is nothing to judge');
        const previous = state.judgement;
        // The same verdict again (a retried job, a back-fill over judged answers) decides nothing.
        if (previous && previous.cacheKey === command.judgement.cacheKey && (previous.outcome === 'labelled' || command.judgement.outcome === 'fallback')) return [];
        const judged: AnswerJudged = { type: 'answer.judged', data: { ...command.judgement } };
        const { runId: _r, n: _n, organizationId: _o, brandId: _b, promptId: _p, query: _q, provider: _v, askedAt: _a, analysedAt: _t, ...latest } = state.analysis;
        const analysis = withJudgement(latest, command.judgement);
        return sameAnalysis(state.analysis, analysis) && isDeepStrictEqual(state.analysis.judge, analysis.judge) ? [judged] : [judged, analysed(answer, analysis, command.analysedAt)];
      }
    }
  },
};
