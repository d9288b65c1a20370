import { input, many, series } from '../testing';
import { sovDrop } from './sov-drop.detector';
import { DEFAULT_THRESHOLDS } from './thresholds';

// Two prompts on chatgpt: the brand's mentions fall from 3 of 5 per answer to 0 of 2.
const voiced = { brand: { mentions: 3 }, totalMentions: 5 };
const silent = { brand: { mentioned: false, mentions: 0, rank: null }, totalMentions: 2 };
const prompt = (promptId: number, recent: object) => series([...many(28, { promptId, ...voiced }), ...many(7, { promptId, runId: 2, ...recent })], { promptId });

describe('sov_drop', () => {
  it("reports a significant fall of the brand's share of voice on a provider, over its prompts, with mentions as n", () => {
    const [d] = sovDrop.detect(input([prompt(1, silent), prompt(2, silent)]));
    expect(d).toMatchObject({ type: 'sov_drop', fingerprint: 'sov_drop:7:all:chatgpt', severity: 'critical', title: "Acme's share of voice dropped on chatgpt" });
    expect(d.evidence).toMatchObject({ metric: 'shareOfVoice', prompts: 2, before: { k: 168, n: 280, value: 0.6 }, after: { k: 0, n: 28, value: 0 }, scope: { provider: 'chatgpt', promptId: null } });
    expect(d.evidence.examples).toHaveLength(3);
  });

  it('reports nothing for an insignificant dip (3 of 5 → 5 of 9 mentions)', () => {
    expect(sovDrop.detect(input([prompt(1, { brand: { mentions: 5 }, totalMentions: 9 })]))).toEqual([]);
  });

  it('reports nothing on a too-small sample', () => {
    const s = series([...many(2, voiced), ...many(1, { runId: 2, ...silent })]);
    expect(sovDrop.detect(input([s], { thresholds: { recentAnswers: 1, minSamples: 5 } }))).toEqual([]);
  });

  it('reports nothing for a fingerprint already open, and nothing for a provider without an answer in the run', () => {
    expect(sovDrop.detect(input([prompt(1, silent)], { openFingerprints: new Set(['sov_drop:7:all:chatgpt']) }))).toEqual([]);
    expect(sovDrop.detect(input([prompt(1, silent)], { runIds: new Set([99]) }))).toEqual([]);
  });

  it('verifies on the mentions after the fix', () => {
    const [d] = sovDrop.detect(input([prompt(1, silent)]));
    expect(sovDrop.verify(d.evidence, [series(many(7, voiced))], DEFAULT_THRESHOLDS).status).toBe('passed');
    expect(sovDrop.verify(d.evidence, [series(many(7, silent))], DEFAULT_THRESHOLDS).status).toBe('failed');
    expect(sovDrop.verify(d.evidence, [series(many(1, silent))], DEFAULT_THRESHOLDS).status).toBe('waiting');
  });
});
