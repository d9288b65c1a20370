import { answer, input, many, series } from '../testing';
import { flipRateTest, stabilityAlert } from './stability-alert.detector';
import { DEFAULT_THRESHOLDS } from './thresholds';

const on = { brand: { mentioned: true } };
const off = { brand: { mentioned: false, mentions: 0, rank: null } };
const alternating = (count: number) => Array.from({ length: count }, (_, i) => answer(i % 2 ? off : on));

describe('stability_alert', () => {
  it('reports answers that flip-flop, with the flip rate, its n and a one-sided test', () => {
    const [d] = stabilityAlert.detect(input([series(alternating(20))]));
    expect(d).toMatchObject({ type: 'stability_alert', fingerprint: 'stability_alert:7:p1:chatgpt', severity: 'critical' });
    expect(d.evidence).toMatchObject({ flipRate: { k: 19, n: 19, value: 1 }, test: { pValue: expect.any(Number), maxFlipRate: 0.3 } });
  });

  it('reports nothing for a few flips (not significantly above maxFlipRate)', () => {
    expect(stabilityAlert.detect(input([series([...many(8, on), ...many(8, off), ...many(8, on)])]))).toEqual([]);
  });

  it('reports nothing on a too-small sample', () => {
    expect(stabilityAlert.detect(input([series(alternating(4))]))).toEqual([]);
  });

  it('reports nothing for a fingerprint already open', () => {
    expect(stabilityAlert.detect(input([series(alternating(20))], { openFingerprints: new Set(['stability_alert:7:p1:chatgpt']) }))).toEqual([]);
  });

  it('verifies: stable answers after the fix pass, flip-flopping ones fail, few wait', () => {
    const [d] = stabilityAlert.detect(input([series(alternating(20))]));
    expect(stabilityAlert.verify(d.evidence, [series(many(8, on))], DEFAULT_THRESHOLDS).status).toBe('passed');
    expect(stabilityAlert.verify(d.evidence, [series(alternating(8))], DEFAULT_THRESHOLDS).status).toBe('failed');
    expect(stabilityAlert.verify(d.evidence, [series(many(3, on))], DEFAULT_THRESHOLDS).status).toBe('waiting');
  });

  it('the one-sided test: p below 0.5 above p0, null without transitions', () => {
    expect(flipRateTest({ k: 8, n: 10 }, 0.3).pValue).toBeLessThan(0.001);
    expect(flipRateTest({ k: 3, n: 10 }, 0.3).pValue).toBeCloseTo(0.5);
    expect(flipRateTest({ k: 0, n: 0 }, 0.3)).toEqual({ z: null, pValue: null });
  });
});
