import { input, many, series } from '../testing';
import { hallucinationCluster } from './hallucination-cluster.detector';
import { DEFAULT_THRESHOLDS } from './thresholds';

const claim = (claimed: string) => ({ contradictions: [{ fact: 'headquarters', claimed, expected: 'Berlin', sentence: `Acme is based in ${claimed}.` }] });

describe('hallucination_cluster', () => {
  it('reports the same wrong claim across providers and prompts, once per claim', () => {
    const s = [series(many(2, { provider: 'chatgpt', ...claim('Paris') })), series(many(1, { provider: 'claude', ...claim('paris ') })), series(many(1, { provider: 'gemini', promptId: 2, ...claim('Paris') }))];
    const found = hallucinationCluster.detect(input(s));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ type: 'hallucination_cluster', severity: 'critical', fingerprint: expect.stringMatching(/^hallucination_cluster:7:headquarters=[0-9a-f]{16}:all$/) });
    expect(found[0].evidence).toMatchObject({ claim: { fact: 'headquarters', claimed: 'Paris', expected: 'Berlin' }, providers: ['chatgpt', 'claude', 'gemini'], after: { k: 4, n: 4 } });
  });

  it('reports nothing for a claim in one series only, or different claims', () => {
    expect(hallucinationCluster.detect(input([series(many(5, claim('Paris')))]))).toEqual([]);
    expect(hallucinationCluster.detect(input([series(many(1, claim('Paris'))), series(many(1, { provider: 'claude', ...claim('Rome') }))]))).toEqual([]);
  });

  it('reports nothing for a fingerprint already open, nor when no series of the cluster was answered in the run', () => {
    const s = [series(many(1, claim('Paris'))), series(many(1, { provider: 'claude', ...claim('Paris') }))];
    const [d] = hallucinationCluster.detect(input(s));
    expect(hallucinationCluster.detect(input(s, { openFingerprints: new Set([d.fingerprint]) }))).toEqual([]);
    expect(hallucinationCluster.detect(input(s, { runIds: new Set([42]) }))).toEqual([]);
  });

  it("verifies on the cluster's series after the fix", () => {
    const s = [series(many(1, claim('Paris'))), series(many(1, { provider: 'claude', ...claim('Paris') }))];
    const [d] = hallucinationCluster.detect(input(s));
    expect(hallucinationCluster.verify(d.evidence, [series(many(7)), series(many(7, { provider: 'claude' }))], DEFAULT_THRESHOLDS).status).toBe('passed');
    expect(hallucinationCluster.verify(d.evidence, [series(many(7, claim('Paris')))], DEFAULT_THRESHOLDS).status).toBe('failed');
    expect(hallucinationCluster.verify(d.evidence, [series(many(2))], DEFAULT_THRESHOLDS).status).toBe('waiting');
  });
});
