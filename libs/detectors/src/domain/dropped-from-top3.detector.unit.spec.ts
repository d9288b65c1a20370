import { input, many, series } from '../testing';
import { droppedFromTop3 } from './dropped-from-top3.detector';
import { DEFAULT_THRESHOLDS } from './thresholds';

const t = DEFAULT_THRESHOLDS;
const history = (recentRank: number | null, recent = 7) => series([...many(28, { brand: { rank: 2 } }), ...many(recent, { runId: 2, brand: { rank: recentRank } })]);

describe('dropped_from_top3', () => {
  it('reports a significant fall of the top-3 rate with its figures, test, severity and examples', () => {
    const [d] = droppedFromTop3.detect(input([history(5)]));
    expect(d).toMatchObject({ type: 'dropped_from_top3', fingerprint: 'dropped_from_top3:7:p1:chatgpt', severity: 'critical', title: 'Acme dropped from the top 3 on chatgpt for "best crm"' });
    expect(d.evidence).toMatchObject({
      metric: 'top3Rate',
      scope: { brandId: 7, promptId: 1, query: 'best crm', provider: 'chatgpt' },
      before: { k: 28, n: 28, value: 1, low: expect.any(Number), high: 1 },
      after: { k: 0, n: 7, value: 0, low: 0 },
      test: { name: expect.stringMatching(/two-proportion/), pValue: expect.any(Number), alpha: 0.05, minSamples: 5 },
      windows: { baseline: { answers: 28 }, recent: { answers: 7 } },
    });
    expect((d.evidence.test as { pValue: number }).pValue).toBeLessThan(0.0001);
    const examples = d.evidence.examples as { resultId: string; link: string }[];
    expect(examples).toHaveLength(3);
    expect(examples[0].link).toBe(`/api/v1/analysis-runs/2/results#${examples[0].resultId}`);
  });

  it('reports nothing for an insignificant dip', () => {
    // 20/28 → 4/7 in the top 3: a dip, p well above 0.05.
    const s = series([...many(20, { brand: { rank: 2 } }), ...many(8, { brand: { rank: 4 } }), ...many(4, { brand: { rank: 2 } }), ...many(3, { brand: { rank: 4 } })]);
    expect(droppedFromTop3.detect(input([s]))).toEqual([]);
  });

  it('reports nothing on a too-small sample, and the minimum is configurable', () => {
    const s = series([...many(4, { brand: { rank: 1 } }), ...many(4, { brand: { rank: 6 } })]);
    expect(droppedFromTop3.detect(input([s], { thresholds: { recentAnswers: 4 } }))).toEqual([]); // baseline n 4 < minSamples 5
    expect(droppedFromTop3.detect(input([s], { thresholds: { recentAnswers: 4, minSamples: 4 } }))).toHaveLength(1);
  });

  it('reports nothing for a fingerprint already open', () => {
    expect(droppedFromTop3.detect(input([history(5)], { openFingerprints: new Set(['dropped_from_top3:7:p1:chatgpt']) }))).toEqual([]);
  });

  it('judges only series answered in the runs that completed (a provider down for the run is not judged)', () => {
    expect(droppedFromTop3.detect(input([history(5)], { runIds: new Set([3]) }))).toEqual([]);
    expect(droppedFromTop3.detect(input([history(5)], { runIds: new Set([2]) }))).toHaveLength(1);
  });

  it('verifies a fix: a significant recovery passes, as many answers without one fail, fewer wait', () => {
    const [d] = droppedFromTop3.detect(input([history(5)]));
    expect(droppedFromTop3.verify(d.evidence, [series(many(7, { brand: { rank: 1 } }))], t)).toMatchObject({ status: 'passed', reason: expect.stringMatching(/^recovered: top3Rate 0% \(n 7\)/) });
    expect(droppedFromTop3.verify(d.evidence, [series(many(7, { brand: { rank: 4 } }))], t)).toMatchObject({ status: 'failed' });
    expect(droppedFromTop3.verify(d.evidence, [series(many(3, { brand: { rank: 1 } }))], t)).toMatchObject({ status: 'waiting' });
    // Answers of another prompt or provider are not this opportunity's.
    expect(droppedFromTop3.verify(d.evidence, [series(many(7, { provider: 'claude', brand: { rank: 1 } }))], t)).toMatchObject({ status: 'waiting' });
  });
});
