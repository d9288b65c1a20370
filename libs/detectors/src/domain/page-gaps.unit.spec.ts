import { pageFingerprint, readinessGap, schemaGap, type PageDetectorInput } from './index';
import { history, pageResult } from '../testing';

const T = { minPageScore: 50, maxScoreDrop: 15 };
const input = (pages: PageDetectorInput['pages'], open: string[] = []): PageDetectorInput => ({ brandId: 7, brandName: 'Acme', pages, openFingerprints: new Set(open), thresholds: T });

describe('schema_gap', () => {
  it('reports a product page whose JSON-LD does not parse, high, with the problems, the audit link and the history', () => {
    const [d, ...rest] = schemaGap.detect(input([history(pageResult({ n: 1, score: 70, day: '2026-11-01', schema: 'broken' }))]));
    expect(rest).toEqual([]);
    expect(d).toMatchObject({
      type: 'schema_gap',
      fingerprint: 'schema_gap:7:https://acme.example/pricing',
      severity: 'high',
      title: 'Acme: https://acme.example/pricing has broken structured data',
      evidence: {
        page: { url: 'https://acme.example/pricing', kinds: ['product'] },
        audit: { id: 101, resultId: 1, link: '/api/v1/brands/7/page-audits/101' },
        problems: [{ code: 'fix_json_ld', finding: '1 of 1 JSON-LD block(s) do not parse', action: 'Fix the JSON-LD syntax' }],
        brokeSince: null,
        history: [{ auditId: 101, score: 70, structuredData: 0.7 }],
      },
    });
  });

  it('grades by what is wrong and where: missing on an article is medium, a misfitting type on an article low, one level more when it broke since the audit before', () => {
    const sev = (h: Parameters<typeof history>) => schemaGap.detect(input([history(...h)]))[0]?.severity;
    expect(sev([pageResult({ n: 1, score: 60, day: '2026-11-01', schema: 'missing', kinds: ['article'] })])).toBe('medium');
    expect(sev([pageResult({ n: 1, score: 60, day: '2026-11-01', schema: 'mismatch', kinds: ['article'] })])).toBe('low');
    expect(sev([pageResult({ n: 1, score: 60, day: '2026-11-01', schema: 'mismatch' })])).toBe('medium');
    expect(sev([pageResult({ n: 1, score: 80, day: '2026-10-01' }), pageResult({ n: 2, score: 66, day: '2026-11-01', schema: 'broken' })])).toBe('critical');
  });

  it('reports nothing for a page whose markup is whole (an unfinished property is not a schema gap), nor for a gap already open', () => {
    expect(schemaGap.detect(input([history(pageResult({ n: 1, score: 90, day: '2026-11-01' }))]))).toEqual([]);
    // A type fitting one of the page's kinds (Product on a page that also reads like an article) is its type.
    expect(schemaGap.detect(input([history(pageResult({ n: 1, score: 88, day: '2026-11-01', schema: 'partial', kinds: ['product', 'article'] }))]))).toEqual([]);
    const broken = history(pageResult({ n: 1, score: 70, day: '2026-11-01', schema: 'broken' }));
    expect(schemaGap.detect(input([broken], [pageFingerprint('schema_gap', 7, broken.url)]))).toEqual([]);
  });

  it('judges the latest audit: a gap fixed since is not reported', () => {
    expect(schemaGap.detect(input([history(pageResult({ n: 1, score: 60, day: '2026-10-01', schema: 'missing' }), pageResult({ n: 2, score: 85, day: '2026-11-01' }))]))).toEqual([]);
  });

  it('verifies on the audits after the fix: none waits, the latest whole passes, the latest still broken fails', () => {
    const [d] = schemaGap.detect(input([history(pageResult({ n: 1, score: 70, day: '2026-11-01', schema: 'broken' }))]));
    expect(schemaGap.verify(d.evidence, [], T)).toMatchObject({ status: 'waiting', details: { auditsAfterFix: 0 } });
    expect(schemaGap.verify(d.evidence, [pageResult({ n: 2, score: 72, day: '2026-11-05', schema: 'broken' }), pageResult({ n: 3, score: 90, day: '2026-11-06' })], T)).toMatchObject({
      status: 'passed',
      details: { auditsAfterFix: 2, audit: { id: 103 }, structuredData: 0.9 },
    });
    expect(schemaGap.verify(d.evidence, [pageResult({ n: 2, score: 72, day: '2026-11-05', schema: 'mismatch' })], T)).toMatchObject({ status: 'failed', reason: expect.stringContaining('missing Product') });
  });
});

describe('readiness_gap', () => {
  it('reports a page under the floor with the components that cost most and what to do', () => {
    const [d] = readinessGap.detect(input([history(pageResult({ n: 1, score: 38, day: '2026-11-01' }))]));
    expect(d).toMatchObject({
      type: 'readiness_gap',
      fingerprint: 'readiness_gap:7:https://acme.example/pricing',
      severity: 'medium',
      title: 'Acme: https://acme.example/pricing is not ready for AI answers (score 38)',
      evidence: { score: 38, minPageScore: 50, drop: null, weakest: [{ component: 'answerFirst', missingPoints: 12, actions: ['Open with the answer'] }, { component: 'statistics', missingPoints: 10 }, { component: 'structuredData' }] },
    });
    expect(readinessGap.detect(input([history(pageResult({ n: 1, score: 24, day: '2026-11-01' }))]))[0].severity).toBe('high');
  });

  it('reports a fall since the audit before even above the floor; a fall of twice the allowance is high; a smaller one nothing', () => {
    const fell = (from: number, to: number) => readinessGap.detect(input([history(pageResult({ n: 1, score: from, day: '2026-10-01' }), pageResult({ n: 2, score: to, day: '2026-11-01' }))]));
    expect(fell(90, 72)[0]).toMatchObject({ severity: 'medium', title: 'Acme: https://acme.example/pricing lost 18 points of GEO readiness', evidence: { drop: { from: 90, to: 72, points: 18, auditId: 101 } } });
    expect(fell(95, 60)[0].severity).toBe('high');
    expect(fell(90, 76)).toEqual([]);
    expect(readinessGap.detect(input([history(pageResult({ n: 1, score: 50, day: '2026-11-01' }))]))).toEqual([]);
  });

  it('verifies: above the floor and back within the allowance of where it fell from passes; still fallen fails; no audit waits', () => {
    const [low] = readinessGap.detect(input([history(pageResult({ n: 1, score: 38, day: '2026-11-01' }))]));
    expect(readinessGap.verify(low.evidence, [], T).status).toBe('waiting');
    expect(readinessGap.verify(low.evidence, [pageResult({ n: 2, score: 61, day: '2026-11-09' })], T)).toMatchObject({ status: 'passed', details: { score: 61, scoreAtDetection: 38 } });
    expect(readinessGap.verify(low.evidence, [pageResult({ n: 2, score: 45, day: '2026-11-09' })], T)).toMatchObject({ status: 'failed', reason: expect.stringContaining('score 45 under 50') });
    const [fall] = readinessGap.detect(input([history(pageResult({ n: 1, score: 90, day: '2026-10-01' }), pageResult({ n: 2, score: 70, day: '2026-11-01' }))]));
    expect(readinessGap.verify(fall.evidence, [pageResult({ n: 3, score: 74, day: '2026-11-09' })], T).status).toBe('failed');
    expect(readinessGap.verify(fall.evidence, [pageResult({ n: 3, score: 80, day: '2026-11-09' })], T).status).toBe('passed');
  });
});
