import { input, many, series } from '../testing';
import { misinformation } from './misinformation.detector';
import { DEFAULT_THRESHOLDS } from './thresholds';

const wrong = { contradictions: [{ fact: 'foundedYear', claimed: '1999', expected: '2012', sentence: 'Acme was founded in 1999.' }] };

describe('misinformation', () => {
  it('reports answers contradicting a registered fact, with the claims and examples', () => {
    const [d] = misinformation.detect(input([series([...many(4), ...many(3, wrong)])]));
    expect(d).toMatchObject({ type: 'misinformation', fingerprint: 'misinformation:7:p1:chatgpt', severity: 'critical' });
    expect(d.description).toContain('foundedYear "1999" (registered: "2012")');
    expect(d.evidence).toMatchObject({ after: { k: 3, n: 7 }, claims: [{ fact: 'foundedYear', claimed: '1999', expected: '2012', answers: 3 }] });
    expect(d.evidence.examples).toHaveLength(3);
  });

  it('reports nothing below minContradictions (a single slip), and nothing outside the recent window', () => {
    expect(misinformation.detect(input([series([...many(6), ...many(1, wrong)])]))).toEqual([]);
    expect(misinformation.detect(input([series([...many(3, wrong), ...many(7)])]))).toEqual([]);
  });

  it('reports nothing for a fingerprint already open', () => {
    expect(misinformation.detect(input([series(many(7, wrong))], { openFingerprints: new Set(['misinformation:7:p1:chatgpt']) }))).toEqual([]);
  });

  it('verifies: correct answers after the fix pass, repeated claims fail, few answers wait', () => {
    const [d] = misinformation.detect(input([series(many(7, wrong))]));
    expect(misinformation.verify(d.evidence, [series(many(7))], DEFAULT_THRESHOLDS).status).toBe('passed');
    expect(misinformation.verify(d.evidence, [series(many(2, wrong))], DEFAULT_THRESHOLDS).status).toBe('failed');
    expect(misinformation.verify(d.evidence, [series(many(2))], DEFAULT_THRESHOLDS).status).toBe('waiting');
  });
});
