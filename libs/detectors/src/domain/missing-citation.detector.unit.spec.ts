import { input, many, series } from '../testing';
import { missingCitation } from './missing-citation.detector';
import { DEFAULT_THRESHOLDS } from './thresholds';

const uncited = { cited: false, competitorDomains: ['globex.com', 'initech.io'] };

describe('missing_citation', () => {
  it("reports a significant fall of the brand's citation rate, with the domains cited instead", () => {
    const [d] = missingCitation.detect(input([series([...many(28), ...many(7, uncited)])]));
    expect(d).toMatchObject({ type: 'missing_citation', fingerprint: 'missing_citation:7:p1:chatgpt', severity: 'critical', title: 'chatgpt stopped citing Acme for "best crm"' });
    expect(d.evidence).toMatchObject({ before: { k: 28, n: 28 }, after: { k: 0, n: 7 }, citedInstead: [{ domain: 'globex.com', answers: 7 }, { domain: 'initech.io', answers: 7 }], test: { pValue: expect.any(Number) } });
  });

  it('reports nothing for an insignificant dip, and answers without any citation are not in the sample', () => {
    expect(missingCitation.detect(input([series([...many(20), ...many(8, uncited), ...many(4), ...many(3, uncited)])]))).toEqual([]);
    expect(missingCitation.detect(input([series([...many(28), ...many(7, { cited: false, withCitations: false })])]))).toEqual([]);
  });

  it('reports nothing on a too-small sample', () => {
    expect(missingCitation.detect(input([series([...many(4), ...many(4, uncited)])], { thresholds: { recentAnswers: 4 } }))).toEqual([]);
  });

  it('reports nothing for a fingerprint already open', () => {
    expect(missingCitation.detect(input([series([...many(28), ...many(7, uncited)])], { openFingerprints: new Set(['missing_citation:7:p1:chatgpt']) }))).toEqual([]);
  });

  it('verifies on the citation rate after the fix', () => {
    const [d] = missingCitation.detect(input([series([...many(28), ...many(7, uncited)])]));
    expect(missingCitation.verify(d.evidence, [series(many(7))], DEFAULT_THRESHOLDS).status).toBe('passed');
    expect(missingCitation.verify(d.evidence, [series(many(7, uncited))], DEFAULT_THRESHOLDS).status).toBe('failed');
    expect(missingCitation.verify(d.evidence, [series(many(2))], DEFAULT_THRESHOLDS).status).toBe('waiting');
  });
});
