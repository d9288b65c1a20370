import { input, many, series } from '../testing';
import { competitorGap } from './competitor-gap.detector';
import { DEFAULT_THRESHOLDS } from './thresholds';

const absent = { brand: { mentioned: false, mentions: 0, rank: null } };
const present = {};

describe('competitor_gap', () => {
  it('reports a competitor mentioned significantly more often than the brand in the recent answers', () => {
    const [d] = competitorGap.detect(input([series(many(7, absent))]));
    expect(d).toMatchObject({ type: 'competitor_gap', fingerprint: 'competitor_gap:7:p1:chatgpt', severity: 'critical', title: 'Globex is mentioned ahead of Acme on chatgpt for "best crm"' });
    expect(d.evidence).toMatchObject({ competitor: { entityId: 'competitor-1', name: 'Globex' }, brand: { k: 0, n: 7 }, competitorRate: { k: 7, n: 7 }, test: { pValue: expect.any(Number) } });
  });

  it('reports nothing for an insignificant gap', () => {
    expect(competitorGap.detect(input([series([...many(5, present), ...many(2, absent)])]))).toEqual([]);
  });

  it('reports nothing on a too-small sample', () => {
    expect(competitorGap.detect(input([series(many(3, absent))]))).toEqual([]);
  });

  it('reports nothing for a fingerprint already open', () => {
    expect(competitorGap.detect(input([series(many(7, absent))], { openFingerprints: new Set(['competitor_gap:7:p1:chatgpt']) }))).toEqual([]);
  });

  it('verifies: the brand back in the answers passes, the gap still there fails, few answers wait', () => {
    const [d] = competitorGap.detect(input([series(many(7, absent))]));
    expect(competitorGap.verify(d.evidence, [series(many(7, present))], DEFAULT_THRESHOLDS).status).toBe('passed');
    expect(competitorGap.verify(d.evidence, [series(many(7, absent))], DEFAULT_THRESHOLDS).status).toBe('failed');
    expect(competitorGap.verify(d.evidence, [series(many(2, absent))], DEFAULT_THRESHOLDS).status).toBe('waiting');
  });
});
