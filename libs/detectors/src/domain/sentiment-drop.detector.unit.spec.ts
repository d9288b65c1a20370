import { input, many, series } from '../testing';
import { sentimentDrop } from './sentiment-drop.detector';
import { DEFAULT_THRESHOLDS } from './thresholds';

const positive = { brand: { sentiment: 'positive' as const } };
const negative = { brand: { sentiment: 'negative' as const } };
const neutral = { brand: { sentiment: 'neutral' as const } };

describe('sentiment_drop', () => {
  it('reports a significant worsening (positive share fell, negative share rose: the stronger is reported)', () => {
    const [d] = sentimentDrop.detect(input([series([...many(28, positive), ...many(7, negative)])]));
    expect(d).toMatchObject({ type: 'sentiment_drop', fingerprint: 'sentiment_drop:7:p1:chatgpt', severity: 'critical' });
    expect(d.evidence).toMatchObject({ metric: expect.stringMatching(/positiveShare|negativeShare/), test: { pValue: expect.any(Number) } });
    const [n] = sentimentDrop.detect(input([series([...many(28, neutral), ...many(7, negative)])]));
    expect(n.evidence).toMatchObject({ metric: 'negativeShare', before: { k: 0, n: 28 }, after: { k: 7, n: 7 } });
  });

  it('reports nothing for an insignificant dip', () => {
    expect(sentimentDrop.detect(input([series([...many(20, positive), ...many(8, neutral), ...many(4, positive), ...many(3, neutral)])]))).toEqual([]);
  });

  it('reports nothing on a too-small sample (answers without a label do not count)', () => {
    const unlabelled = { brand: { mentioned: false, sentiment: null, rank: null, mentions: 0 } };
    expect(sentimentDrop.detect(input([series([...many(28, positive), ...many(4, unlabelled), ...many(3, negative)])]))).toEqual([]);
  });

  it('reports nothing for a fingerprint already open', () => {
    expect(sentimentDrop.detect(input([series([...many(28, positive), ...many(7, negative)])], { openFingerprints: new Set(['sentiment_drop:7:p1:chatgpt']) }))).toEqual([]);
  });

  it('verifies on the same share in the other direction', () => {
    const [d] = sentimentDrop.detect(input([series([...many(28, neutral), ...many(7, negative)])]));
    expect(sentimentDrop.verify(d.evidence, [series(many(7, neutral))], DEFAULT_THRESHOLDS).status).toBe('passed');
    expect(sentimentDrop.verify(d.evidence, [series(many(7, negative))], DEFAULT_THRESHOLDS).status).toBe('failed');
  });
});
