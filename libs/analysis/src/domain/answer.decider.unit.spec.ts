import { deciderSpec } from '@libs/event-sourcing';
import { AnalysisRuleError, answerDecider, type AnswerAnalysed, type AnswerAnalysis, type AnswerEvent, type AnswerFailed, type AnswerJudged, type AnswerRecorded } from '.';

const key = { runId: 41, n: 3, organizationId: 1, brandId: 2, promptId: 7, query: 'best crm', provider: 'claude' as const };
const answer: AnswerRecorded['data'] = {
  ...key,
  model: 'claude-sonnet-4-6',
  source: 'live',
  text: 'Acme is the best CRM. Globex is fine.',
  providerCitations: [{ url: 'https://acme.com/', title: 'Acme' }],
  citationsDropped: 0,
  usage: { inputTokens: 10, outputTokens: 20 },
  latencyMs: 812,
  askedAt: '2026-01-01T06:00:02.000Z',
  raw: null,
};
const failure: AnswerFailed['data'] = { ...key, reason: 'HTTP 400', kind: 'client', attempts: 1, askedAt: '2026-01-01T06:00:02.000Z', failedAt: '2026-01-01T06:00:03.000Z' };
const recorded: AnswerEvent = { type: 'answer.recorded', data: answer };
const failed: AnswerEvent = { type: 'answer.failed', data: failure };

const entity = (mentions: number) => ({ entityId: 'brand-2', kind: 'brand' as const, name: 'Acme', mentioned: mentions > 0, mentions, rank: 1, sentiment: 'positive' as const, sentimentScore: 0.6, visibilityShare: 1 });
const analysis = (mentions: number, engineVersion = 'e-1'): AnswerAnalysis => ({
  engineVersion,
  entities: [entity(mentions)],
  citations: [{ url: 'https://acme.com/', domain: 'acme.com', title: 'Acme', position: 1, owner: 'brand', entityId: 'brand-2' }],
  claims: [],
});
/** The event an analysis makes: the answer's key and when it was asked, then the analysis. */
const analysed = (a: AnswerAnalysis, analysedAt: string): AnswerAnalysed => ({
  type: 'answer.analysed',
  data: { ...key, askedAt: answer.askedAt, analysedAt, ...a },
});
const T1 = '2026-01-01T06:00:04.000Z';
const T2 = '2026-02-01T00:00:00.000Z';
const notRecorded = (e: unknown): e is AnalysisRuleError => e instanceof AnalysisRuleError && e.rule === 'not_recorded';

describe('answer decider: recorded once (or failed), analysed, re-analysed', () => {
  const spec = deciderSpec(answerDecider);

  it('records the first ending of a question; a second attempt decides nothing', () => {
    expect(spec.given([]).when({ kind: 'record', answer }).then([recorded])).toEqual({ ending: recorded, analysis: null });
    spec.given([]).when({ kind: 'fail', failure }).then([failed]);
    spec.given([recorded]).when({ kind: 'record', answer: { ...answer, text: 'another attempt' } }).then([]);
    spec.given([recorded]).when({ kind: 'fail', failure }).then([]);
    expect(spec.given([failed]).when({ kind: 'record', answer }).then([])).toEqual({ ending: failed, analysis: null });
  });

  it('analyses a recorded answer once, its event carrying the answer’s key and when it was asked', () => {
    const event = analysed(analysis(1), T1);
    expect(Object.keys(event.data)).toEqual(['runId', 'n', 'organizationId', 'brandId', 'promptId', 'query', 'provider', 'askedAt', 'analysedAt', 'engineVersion', 'entities', 'citations', 'claims']);
    expect(spec.given([recorded]).when({ kind: 'analyse', analysis: analysis(1), analysedAt: T1 }).then([event])).toEqual({ ending: recorded, analysis: event.data });
    // Another job of the question found it analysed (by itself before a crash, or a re-analysis): nothing more.
    spec.given([recorded, event]).when({ kind: 'analyse', analysis: analysis(2), analysedAt: T2 }).then([]);
  });

  it('refuses to analyse what was not recorded', () => {
    spec.given([]).when({ kind: 'analyse', analysis: analysis(1), analysedAt: T1 }).thenError(notRecorded);
    spec.given([failed]).when({ kind: 'analyse', analysis: analysis(1), analysedAt: T1 }).thenError(notRecorded);
    spec.given([failed]).when({ kind: 'reanalyse', analysis: analysis(1), analysedAt: T1 }).thenError(notRecorded);
  });

  it('re-analyses only when the analysis changes (engine version, entities or citations), compared as values', () => {
    const first = analysed(analysis(1), T1);
    // The store gives stored objects back with their keys in another order: still the same analysis.
    const reordered: AnswerAnalysed = { ...first, data: { ...first.data, entities: first.data.entities.map((e) => Object.fromEntries(Object.entries(e).reverse()) as typeof e) } };
    spec.given([recorded, reordered]).when({ kind: 'reanalyse', analysis: analysis(1), analysedAt: T2 }).then([]);
    spec.given([recorded, first]).when({ kind: 'reanalyse', analysis: analysis(2), analysedAt: T2 }).then([analysed(analysis(2), T2)]);
    spec.given([recorded, first]).when({ kind: 'reanalyse', analysis: analysis(1, 'e-2'), analysedAt: T2 }).then([analysed(analysis(1, 'e-2'), T2)]);
    // The latest analysis is the one compared with.
    const second = analysed(analysis(2), T2);
    spec.given([recorded, first, second]).when({ kind: 'reanalyse', analysis: analysis(1), analysedAt: T2 }).then([analysed(analysis(1), T2)]);
    spec.given([recorded, first, second]).when({ kind: 'reanalyse', analysis: analysis(2), analysedAt: T2 }).then([]);
    // A recorded answer never analysed (the engine threw on it) is analysed by a re-analysis.
    spec.given([recorded]).when({ kind: 'reanalyse', analysis: analysis(1), analysedAt: T2 }).then([analysed(analysis(1), T2)]);
  });

  describe('the sentiment judge', () => {
    const LABELLER = 'judge:openai/gpt-4.1-mini';
    const judgement = (outcome: 'labelled' | 'fallback', cacheKey = 'k1'): AnswerJudged['data'] => ({
      ...key,
      labeller: LABELLER,
      promptVersion: '1',
      cacheKey,
      outcome,
      fallback: outcome === 'fallback' ? { kind: 'malformed', reason: 'not JSON' } : null,
      labels: outcome === 'labelled' ? [{ entityId: 'brand-2', sentiment: 'negative', evidence: 'clunky' }] : [],
      asked: 1,
      unknown: 0,
      cached: false,
      usage: outcome === 'labelled' ? { inputTokens: 300, outputTokens: 40 } : null,
      judgedAt: T2,
    });
    const judgedAnalysis = (a: AnswerAnalysis): AnswerAnalysis => ({
      ...a,
      entities: a.entities.map((e) => ({ ...e, sentiment: 'negative' as const, sentimentScore: -1, labeller: LABELLER })),
      judge: { labeller: LABELLER, outcome: 'labelled' },
    });
    const first = analysed(analysis(1), T1);

    it("records the verdict and a new analysis with the judge's labels, naming the labeller", () => {
      const verdict = judgement('labelled');
      spec.given([recorded, first]).when({ kind: 'judge', judgement: verdict, analysedAt: T2 }).then([{ type: 'answer.judged', data: verdict }, analysed(judgedAnalysis(analysis(1)), T2)]);
    });

    it('the same verdict again decides nothing; a fallback keeps the offline labels, marked', () => {
      const verdict: AnswerEvent = { type: 'answer.judged', data: judgement('labelled') };
      spec.given([recorded, first, verdict]).when({ kind: 'judge', judgement: judgement('labelled'), analysedAt: T2 }).then([]);
      spec.given([recorded, first, verdict]).when({ kind: 'judge', judgement: judgement('fallback'), analysedAt: T2 }).then([]);
      const fallback = judgement('fallback');
      spec
        .given([recorded, first])
        .when({ kind: 'judge', judgement: fallback, analysedAt: T2 })
        .then([{ type: 'answer.judged', data: fallback }, analysed({ ...analysis(1), judge: { labeller: LABELLER, outcome: 'fallback' } }, T2)]);
    });

    it("a re-analysis keeps the judge's labels (nothing is asked again), and refuses to judge an answer not analysed", () => {
      const verdict: AnswerEvent = { type: 'answer.judged', data: judgement('labelled') };
      const judged = analysed(judgedAnalysis(analysis(1)), T2);
      spec.given([recorded, first, verdict, judged]).when({ kind: 'reanalyse', analysis: analysis(1), analysedAt: T2 }).then([]);
      spec.given([recorded, first, verdict, judged]).when({ kind: 'reanalyse', analysis: analysis(1, 'e-2'), analysedAt: T2 }).then([analysed(judgedAnalysis(analysis(1, 'e-2')), T2)]);
      spec.given([recorded]).when({ kind: 'judge', judgement: judgement('labelled'), analysedAt: T2 }).thenError((e) => e instanceof AnalysisRuleError && e.rule === 'not_analysed');
    });
  });
});
