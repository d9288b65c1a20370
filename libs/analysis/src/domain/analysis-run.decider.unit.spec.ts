import { deciderSpec } from '@libs/event-sourcing';
import { AnalysisRuleError, analysisRunDecider, type AnalysisRunEvent, type AnalysisRunRequested } from '.';

const run: AnalysisRunRequested['data'] = {
  runId: 41,
  organizationId: 1,
  brandId: 2,
  trigger: 'api',
  auditRequestId: 9,
  queries: ['best crm'],
  providers: ['chatgpt', 'claude'],
  items: [
    { n: 0, promptId: null, query: 'best crm', provider: 'chatgpt' },
    { n: 1, promptId: null, query: 'best crm', provider: 'claude' },
  ],
  requestedAt: '2026-01-01T06:00:00.000Z',
};
const requested: AnalysisRunEvent = { type: 'analysis_run.requested', data: run };
const started: AnalysisRunEvent = { type: 'analysis_run.started', data: { runId: 41, startedAt: '2026-01-01T06:00:01.000Z' } };
const completed = (answersRecorded: number, answersFailed: number, status: 'completed' | 'partial' | 'failed'): AnalysisRunEvent => ({
  type: 'analysis_run.completed',
  data: { runId: 41, status, answersRecorded, answersFailed, completedAt: '2026-01-01T06:01:00.000Z' },
});
const complete = (answersRecorded: number, answersFailed: number) => ({ kind: 'complete' as const, answersRecorded, answersFailed, completedAt: '2026-01-01T06:01:00.000Z' });
const refused = (rule: AnalysisRuleError['rule']) => (e: unknown): e is AnalysisRuleError => e instanceof AnalysisRuleError && e.rule === rule;

describe('analysis run decider: requested → started → completed, each once', () => {
  const spec = deciderSpec(analysisRunDecider);

  it('records a new run’s request, once', () => {
    expect(spec.given([]).when({ kind: 'request', run }).then([requested])).toEqual({ requested: run, started: false, completed: null });
    spec.given([requested]).when({ kind: 'request', run }).thenError(refused('already_requested'));
  });

  it('starts a requested run once: the jobs racing to start it after the first decide nothing', () => {
    spec.given([requested]).when({ kind: 'start', startedAt: '2026-01-01T06:00:01.000Z' }).then([started]);
    spec.given([requested, started]).when({ kind: 'start', startedAt: '2026-01-01T06:00:02.000Z' }).then([]);
    // A run that has ended is not started afterwards.
    spec.given([requested, completed(2, 0, 'completed')]).when({ kind: 'start', startedAt: '2026-01-01T06:02:00.000Z' }).then([]);
    spec.given([]).when({ kind: 'start', startedAt: '2026-01-01T06:00:01.000Z' }).thenError(refused('not_requested'));
  });

  it('completes once, its status from the answers: all recorded, some failed, none recorded', () => {
    spec.given([requested, started]).when(complete(2, 0)).then([completed(2, 0, 'completed')]);
    spec.given([requested, started]).when(complete(1, 1)).then([completed(1, 1, 'partial')]);
    spec.given([requested, started]).when(complete(0, 2)).then([completed(0, 2, 'failed')]);
    // A retried last job completes nothing more; the first completion stands.
    const state = spec.given([requested, started, completed(2, 0, 'completed')]).when(complete(1, 1)).then([]);
    expect(state.completed).toMatchObject({ status: 'completed', answersRecorded: 2 });
    spec.given([]).when(complete(2, 0)).thenError(refused('not_requested'));
  });

  it('a run a budget stopped ends partial with reason budget_exhausted, even with no answer recorded', () => {
    const budget = (answersRecorded: number, answersFailed: number, answersNotAsked: number): AnalysisRunEvent => ({
      type: 'analysis_run.completed',
      data: { runId: 41, status: 'partial', answersRecorded, answersFailed, completedAt: '2026-01-01T06:01:00.000Z', reason: 'budget_exhausted', answersNotAsked },
    });
    spec.given([requested, started]).when({ ...complete(1, 1), answersNotAsked: 1 }).then([budget(1, 1, 1)]);
    spec.given([requested, started]).when({ ...complete(0, 2), answersNotAsked: 2 }).then([budget(0, 2, 2)]);
    // No question kept from being asked: no reason, as before.
    spec.given([requested, started]).when({ ...complete(1, 1), answersNotAsked: 0 }).then([completed(1, 1, 'partial')]);
  });
});
